/**
 * Push indexing (SPEC §4.2): `POST`/`PUT /<index>/_index` and `POST /<index>/_flush`.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, HttpErrorType } from '../http-status.js';
import { indexBody } from '../push-indexer.js';
import { readBody } from '../request-body.js';
import { singleParam } from '../request-input.js';
import { lookupIndex, requireWrites } from '../route-context.js';
import type { RouteContext } from '../route-context.js';
import { WritableIndex } from '../served-index.js';

type IndexRequest = FastifyRequest<{ Params: { index: string } }>;

function emptyBody(): AsyncIterable<Buffer> {
  return (async function* () { /* no body */ })();
}

/**
 * Indexes the body of a push request into index `name` (its documents streamed, validated and
 * written; `?refresh=true` makes them searchable before it resolves). Shared by `_index` and
 * `POST /v1/index/<index>`, which differ only in the shape of their answer.
 */
export async function pushDocuments(ctx: RouteContext, name: string, request: FastifyRequest): Promise<{ docs: number; bytes: number; seconds: number }> {
  requireWrites(ctx);
  const served = lookupIndex(ctx, name);
  const started = performance.now();
  const raw = request.body as Readable | undefined;
  const label = `${request.method} ${request.url}`;
  const body = raw === undefined ? emptyBody() : readBody(raw, request.headers, ctx.bodyLimit);
  const result = await indexBody(served.index(), body, {
    onProgress: (docs, bytes) => { ctx.log.info(`${label}: ${docs} docs, ${(bytes / 1e6).toFixed(1)} MB read`); },
  });
  ctx.metrics.indexed(served.name, result.docs, result.bytes);
  const refresh = singleParam(request.query, 'refresh');
  if (refresh !== undefined && refresh !== '' && refresh !== 'true' && refresh !== 'false') {
    throw new HttpError(HttpErrorType.invalidRequest, `query parameter refresh must be true or false, got ${JSON.stringify(refresh.slice(0, 40))}`, { field: 'refresh', expected: 'true or false', actual: refresh.slice(0, 40) });
  }
  if ((refresh === 'true' || refresh === '') && served instanceof WritableIndex) await served.refresh();
  return { docs: result.docs, bytes: result.bytes, seconds: (performance.now() - started) / 1000 };
}

/**
 * Registers `_index` and `_flush` for every index (`/:index/...`), or, given `only`, for that one
 * index under its literal name: a mounted module whose prefix is an index's name (`/plants`) owns
 * `/plants/:id`, and these static paths take precedence over it.
 */
export function registerIndexRoutes(app: FastifyInstance, ctx: RouteContext, only?: string): void {
  const base = only === undefined ? '/:index' : `/${only}`;
  const nameOf = (request: FastifyRequest<{ Params: { index?: string } }>): string => only ?? request.params.index ?? '';
  const handleIndex = async (request: IndexRequest, reply: FastifyReply): Promise<void> => {
    const result = await pushDocuments(ctx, nameOf(request), request);
    void reply.code(200).send({ result: 'created', took: Math.round(result.seconds * 1000), docs: result.docs, bytes: result.bytes });
  };
  app.post(`${base}/_index`, handleIndex);
  app.put(`${base}/_index`, handleIndex);

  app.post(`${base}/_flush`, async (request: FastifyRequest<{ Params: { index: string } }>, reply) => {
    requireWrites(ctx);
    const served = lookupIndex(ctx, nameOf(request));
    const result = await served.index().commit();
    ctx.log.debug(`index ${served.name} committed at seq=${result.seq}`);
    void reply.code(200).send();
  });
}
