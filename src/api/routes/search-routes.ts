/**
 * Reading (SPEC §4.3): `POST`/`GET /<index>/_search`, `GET /<index>` (mapping and figures) and
 * `GET /_indexes`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SearchRequest } from '../../engine/index.js';
import { foregroundGate, mappingToJson } from '../../engine/index.js';
import { readJsonObject } from '../json-body.js';
import { checkQueryDepth, decimalParam, singleParam } from '../request-input.js';
import { lookupIndex, requireSearch } from '../route-context.js';
import type { RouteContext } from '../route-context.js';
import type { ServedIndex } from '../served-index.js';

/** The figures `GET /<index>` and `/_indexes` show of an index. */
export function figures(served: ServedIndex): Record<string, unknown> {
  const s = served.index().stats();
  return { name: served.name, docs: s.docs, segments: s.segments, seq: s.seq, size: s.sizeBytes, buffered_docs: s.bufferedDocs };
}

/**
 * The JSON object of a search request's body (an empty body is `{}`, match_all); 400 for anything
 * else. The keys are checked by the engine, which refuses unknown ones. Shared by `_search` and
 * `POST /v1/index/<index>/search`.
 */
export async function readSearchRequest(ctx: RouteContext, request: FastifyRequest): Promise<SearchRequest> {
  const parsed = await readJsonObject(request, ctx.bodyLimit, 'the search request');
  checkQueryDepth(parsed);
  return parsed;
}

/**
 * Registers the read endpoints for every index, or, given `only`, `_search` for that one index under
 * its literal name (see registerIndexRoutes; `GET /<only>` then stays the module's, and the index's
 * figures are in `/_indexes`).
 */
export function registerSearchRoutes(app: FastifyInstance, ctx: RouteContext, only?: string): void {
  const base = only === undefined ? '/:index' : `/${only}`;
  const nameOf = (request: FastifyRequest<{ Params: { index?: string } }>): string => only ?? request.params.index ?? '';
  app.get(`${base}/_search`, async (request: FastifyRequest<{ Params: { index: string } }>, reply: FastifyReply) => {
    requireSearch(ctx);
    const served = lookupIndex(ctx, nameOf(request));
    // Parameters arrive as strings, or arrays when repeated: each is read strictly.
    const q = singleParam(request.query, 'q');
    const size = decimalParam(request.query, 'size');
    const from = decimalParam(request.query, 'from');
    const search: SearchRequest = {
      ...(q === undefined || q.trim() === '' ? { query: { match_all: {} } } : { q }),
      ...(size === undefined ? {} : { size }),
      ...(from === undefined ? {} : { from }),
    };
    return reply.send(await foregroundGate().around(() => served.index().searchAsync(search)));
  });

  app.post(`${base}/_search`, { config: { auth: 'read' } }, async (request: FastifyRequest<{ Params: { index: string } }>) => {
    requireSearch(ctx);
    const served = lookupIndex(ctx, nameOf(request));
    const search = await readSearchRequest(ctx, request);
    // While it runs, the writer's background threads pause (issue 17: search latency while indexing).
    return foregroundGate().around(() => served.index().searchAsync(search));
  });

  if (only !== undefined) return;
  app.get('/:index', (request: FastifyRequest<{ Params: { index: string } }>, reply: FastifyReply) => {
    const served = lookupIndex(ctx, request.params.index);
    return reply.send({ ...figures(served), mapping: mappingToJson(served.index().mapping) });
  });

  app.get('/_indexes', (_request, reply) => {
    const indexes: Record<string, unknown>[] = [];
    for (const served of ctx.indexes.values()) {
      try {
        indexes.push(figures(served));
      } catch {
        indexes.push({ name: served.name, available: false });
      }
    }
    return reply.send({ indexes });
  });
}
