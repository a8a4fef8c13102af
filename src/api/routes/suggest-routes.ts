/**
 * Completion suggestions: `POST /v1/index/<index>/suggest` in Nixiesearch 0.8's shape
 * (`{"suggestions":[{"text","score"}],"took":<seconds>}`), and the legacy `POST|GET
 * /<index>/_suggest`, which answers the same body with `took` in milliseconds like Yarrow's other
 * legacy routes. The request is `{query, fields, count, rerank: {rrf: {depth, scale}}}`; the GET
 * form takes `?q=<text>&fields=a,b&count=N`.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SuggestRequest, SuggestResponse } from '../../engine/index.js';
import { HttpError, HttpErrorType } from '../http-status.js';
import { readWholeBody } from '../request-body.js';
import { decimalParam, decodeUtf8, singleParam } from '../request-input.js';
import { lookupIndex, requireSearch } from '../route-context.js';
import type { RouteContext } from '../route-context.js';

type IndexRequest = FastifyRequest<{ Params: { index: string } }>;

/** Registers the suggest routes of every served index. */
export function registerSuggestRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const run = async (name: string, request: SuggestRequest): Promise<SuggestResponse> => {
    requireSearch(ctx);
    return lookupIndex(ctx, name).index().suggest(request);
  };

  app.post('/v1/index/:index/suggest', { config: { auth: 'read' } }, async (request: IndexRequest) => {
    const body = await readSuggestBody(request, ctx);
    const res = await run(request.params.index, body);
    return { suggestions: res.suggestions, took: res.took / 1000 };
  });

  app.post('/:index/_suggest', { config: { auth: 'read' } }, async (request: IndexRequest) => {
    const body = await readSuggestBody(request, ctx);
    const res = await run(request.params.index, body);
    return { suggestions: res.suggestions, took: Math.round(res.took) };
  });

  app.get('/:index/_suggest', async (request: IndexRequest) => {
    const q = singleParam(request.query, 'q') ?? '';
    const fields = singleParam(request.query, 'fields');
    const count = decimalParam(request.query, 'count');
    const res = await run(request.params.index, {
      query: q,
      ...(fields === undefined ? {} : { fields: fields.split(',').map((f) => f.trim()).filter((f) => f !== '') }),
      ...(count === undefined ? {} : { count }),
    });
    return { suggestions: res.suggestions, took: Math.round(res.took) };
  });
}

/** The JSON object of a suggest request body (400 naming what is wrong with it). */
async function readSuggestBody(request: IndexRequest, ctx: RouteContext): Promise<SuggestRequest> {
  const raw = request.body as Readable | undefined;
  const text = raw === undefined ? '' : decodeUtf8(await readWholeBody(raw, request.headers, ctx.bodyLimit), 'the suggest request');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new HttpError(HttpErrorType.invalidRequest, `the suggest request is not valid JSON: ${(e as Error).message}`, { expected: 'a JSON object' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new HttpError(HttpErrorType.invalidRequest, 'the suggest request must be a JSON object', { expected: 'object', actual: Array.isArray(parsed) ? 'array' : typeof parsed });
  }
  return parsed;
}
