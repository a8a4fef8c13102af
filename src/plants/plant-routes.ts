/**
 * The plant store's routes (SPEC §4.4) as a fastify plugin mounted at `/plants`, with its own
 * error handler and not-found handler so that every answer under `/plants` (405 and 404 included)
 * carries the sample API's `Error` body. Authentication comes first, then the request is checked
 * against the OpenAPI document's schemas.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { LosslessNumber, parse } from 'lossless-json';
import { readWholeBody } from '../api/index.js';
import type { BearerAuth } from '../api/index.js';
import type { Logger } from '../engine/index.js';
import { integerOfLiteral } from './exact-integer.js';
import { checkInteger, checkValue, formatOf } from './json-schema-check.js';
import type { JsonSchema } from './json-schema-check.js';
import { badRequest, PlantError, plantErrorResponse } from './plant-error.js';
import type { PlantContract } from './plant-openapi.js';
import type { Plant, PlantRepository } from './plant-repository.js';

/** Largest plant request body; a plant is a few short strings. */
export const PLANT_BODY_LIMIT = 64 * 1024;

/** What the plant routes need. */
export interface PlantRouteOptions {
  readonly repository: PlantRepository;
  readonly auth: BearerAuth;
  readonly contract: PlantContract;
  readonly log: Logger;
  /** The server's body limit; the plant store uses the smaller of it and {@link PLANT_BODY_LIMIT}. */
  readonly bodyLimit: number;
}

/** Methods each plant path answers (HEAD comes with GET), for 405 and its Allow header. */
export function plantPathMethods(path: string): readonly string[] | null {
  if (path === '/plants') return ['GET', 'HEAD', 'POST'];
  if (/^\/plants\/[^/]+$/.test(path)) return ['GET', 'HEAD', 'DELETE'];
  return null;
}

/** A plant as the document's `Plant` JSON; the id is written out exactly (it may exceed 2^53). */
export function plantJson(plant: Plant): string {
  const tag = plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`;
  return `{"id":${plant.id.toString()},"name":${JSON.stringify(plant.name)}${tag}}`;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function isJsonMediaType(contentType: string | undefined): boolean {
  const media = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return media === 'application/json' || /^application\/[^/]+\+json$/.test(media);
}

/** A query or path value as the integer the parameter schema allows. */
function integerParameter(schema: JsonSchema, raw: unknown, name: string): bigint {
  if (Array.isArray(raw)) throw badRequest(`${name}: expected one integer, got ${raw.length} values`);
  const text = typeof raw === 'string' ? raw : '';
  const format = formatOf(schema);
  // Any JSON spelling of an integer (1.0, 1e3) is accepted, as in bodies: a client following the
  // document's links puts the id it sent, however it wrote it, into the path.
  if (integerOfLiteral(text) === null) throw badRequest(`${name}: expected ${format === undefined ? 'integer' : `integer (${format})`}, got string ${JSON.stringify(text)}`);
  return checkInteger(schema, new LosslessNumber(text), name);
}

async function readNewPlant(request: FastifyRequest, options: PlantRouteOptions): Promise<Plant> {
  const contentType = request.headers['content-type'];
  if (!isJsonMediaType(contentType)) {
    throw badRequest(contentType === undefined ? 'missing Content-Type: send the plant as application/json' : `Content-Type must be application/json, got ${contentType}`);
  }
  const raw = request.body as Readable | undefined;
  if (raw === undefined) throw badRequest('request body is empty: send a NewPlant JSON object');
  const bytes = await readWholeBody(raw, request.headers, Math.min(options.bodyLimit, PLANT_BODY_LIMIT));
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw badRequest('request body is not valid UTF-8');
  }
  if (text.trim() === '') throw badRequest('request body is empty: send a NewPlant JSON object');
  let value: unknown;
  try {
    value = parse(text);
  } catch (e) {
    throw badRequest(`request body is not valid JSON: ${(e as Error).message}`);
  }
  checkValue(options.contract.newPlant, value, 'request body', 'NewPlant');
  const fields = value as { id: LosslessNumber; name: string; tag?: string };
  const id = checkInteger((options.contract.newPlant.properties as Record<string, JsonSchema>).id, fields.id, 'id');
  return fields.tag === undefined ? { id, name: fields.name } : { id, name: fields.name, tag: fields.tag };
}

function sendJson(reply: FastifyReply, status: number, json: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(json);
}

/** 405 with Allow for a plant path and a method it does not answer; 404 for any other path. */
function notFound(request: FastifyRequest): PlantError {
  const path = request.url.split('?')[0];
  const methods = plantPathMethods(path);
  if (methods === null) return new PlantError('not_found', `no such endpoint: ${request.method} ${path} (see /openapi.json)`);
  return new PlantError('method_not_allowed', `${request.method} is not allowed on ${path} (allowed: ${methods.join(', ')})`, { allow: methods.join(', ') });
}

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

/** The plugin; register it with `{ prefix: '/plants' }`. */
export const plantRoutes: FastifyPluginCallback<PlantRouteOptions> = (scope: FastifyInstance, options: PlantRouteOptions, done) => {
  const { repository, auth, contract, log } = options;

  scope.setErrorHandler((error, request, reply) => {
    // A request no route matched can fail before the not-found handler runs (fastify refuses a
    // body without Content-Type for any method it knows, QUERY included): it still gets 404/405.
    const r = plantErrorResponse(request.is404 ? notFound(request) : error);
    if (r.unexpected) log.error(`${request.method} ${request.url} failed: ${(error as Error).stack ?? String(error)}`);
    return reply.code(r.status).headers(r.headers).type('application/json; charset=utf-8').send(JSON.stringify(r.body));
  });
  scope.setNotFoundHandler((request) => {
    throw notFound(request);
  });
  scope.addHook('onRequest', (request, _reply, next) => {
    try {
      // Unlike the service's reads, the plant store's are never open (its document requires a token).
      auth.check(request.headers.authorization, request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write');
      next();
    } catch (e) {
      next(e as Error);
    }
  });

  scope.post('', async (request, reply) => {
    const plant = await readNewPlant(request, options);
    await repository.put(plant);
    return sendJson(reply, 200, plantJson(plant));
  });

  scope.get('', async (request: FastifyRequest<{ Querystring: { limit?: string | string[] } }>, reply) => {
    const raw = request.query.limit;
    const limit = raw === undefined ? Number(contract.limitParameter.default) : Number(integerParameter(contract.limitParameter, raw, 'limit'));
    const plants = await repository.list(limit);
    return sendJson(reply, 200, `[${plants.map(plantJson).join(',')}]`);
  });

  scope.get('/:id', async (request: IdRequest, reply) => {
    const id = integerParameter(contract.idParameter, request.params.id, 'id');
    const plant = await repository.get(id);
    if (plant === null) throw new PlantError('not_found', `no plant with id ${id}`);
    return sendJson(reply, 200, plantJson(plant));
  });

  scope.delete('/:id', async (request: IdRequest, reply) => {
    const id = integerParameter(contract.idParameter, request.params.id, 'id');
    if (!(await repository.delete(id))) throw new PlantError('not_found', `no plant with id ${id}`);
    return reply.code(204).send();
  });
  done();
};
