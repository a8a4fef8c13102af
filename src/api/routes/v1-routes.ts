/**
 * Nixiesearch 0.8's routes under `/v1` (NIXIESEARCH.md §2), answering in 0.8's shapes (`took` in
 * seconds): push, flush, merge, search, delete by filter or id, mapping, stats, the index list and
 * the config. They run the same code as the legacy `/<index>/_x` routes (push-indexer, the
 * engine's search request, index-maintenance.ts); only the answers differ. An index alias works
 * wherever an index name does (route-context.ts). Suggestions live in their own route module.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SearchRequest } from '../../engine/index.js';
import { aliasesOf, deleteByFilter, deleteById, forceMerge, mappingView, secondsSince, segmentsOf } from '../index-maintenance.js';
import { lookupIndex, requireSearch, requireWrites } from '../route-context.js';
import type { RouteContext } from '../route-context.js';
import { redactSecrets } from '../redact-secrets.js';
import { pushDocuments } from './index-routes.js';
import { readSearchRequest } from './search-routes.js';

type IndexRequest = FastifyRequest<{ Params: { index: string } }>;

/** The fields 0.8 returns when a request names none (or an empty list). */
export const V1_DEFAULT_FIELDS: readonly string[] = ['_id', '_score'];

/** What the `/v1` routes need besides the route context. */
export interface V1Options {
  /** The loaded config, shown (secrets redacted) at `GET /v1/system/config`. */
  readonly config?: unknown;
}

/** Registers the `/v1` routes; every write among them needs the write token (server.ts `protect`). */
export function registerV1Routes(app: FastifyInstance, ctx: RouteContext, options: V1Options = {}): void {
  const ok = (started: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ status: 'ok', took: secondsSince(started), ...extra });

  app.post('/v1/index/:index', async (request: IndexRequest) => {
    const { docs, seconds } = await pushDocuments(ctx, request.params.index, request);
    return { status: 'ok', docs, took: seconds };
  });

  app.post('/v1/index/:index/flush', async (request: IndexRequest) => {
    const started = performance.now();
    requireWrites(ctx);
    await lookupIndex(ctx, request.params.index).index().commit();
    return ok(started);
  });

  app.post('/v1/index/:index/merge', async (request: IndexRequest) => {
    const started = performance.now();
    const { segments } = await forceMerge(ctx, request.params.index, request);
    return ok(started, { segments });
  });

  app.post('/v1/index/:index/delete', async (request: IndexRequest) => {
    const started = performance.now();
    const { deleted } = await deleteByFilter(ctx, request.params.index, request);
    return ok(started, { deleted });
  });

  app.delete('/v1/index/:index/doc/:id', async (request: FastifyRequest<{ Params: { index: string; id: string } }>) => {
    const started = performance.now();
    const { deleted } = await deleteById(ctx, request.params.index, request.params.id);
    return ok(started, { deleted });
  });

  app.post('/v1/index/:index/search', { config: { auth: 'read' } }, async (request: IndexRequest) => {
    const started = performance.now();
    requireSearch(ctx);
    const served = lookupIndex(ctx, request.params.index);
    const body = await readSearchRequest(ctx, request);
    const fields = Array.isArray(body.fields) && body.fields.length > 0 ? body.fields : V1_DEFAULT_FIELDS;
    const request_: SearchRequest = { ...body, fields };
    const { took: _ms, aggs, hits, ...additions } = await served.index().searchAsync(request_);
    // 0.8's envelope (took as seconds by phase, aggs always, ts); Yarrow's totals come along.
    return { took: { total: secondsSince(started) }, hits, aggs: aggs ?? {}, ts: Date.now(), ...additions };
  });

  app.get('/v1/index/:index', (request: IndexRequest) => mappingView(ctx, lookupIndex(ctx, request.params.index)));

  app.get('/v1/index/:index/stats', (request: IndexRequest) => {
    const segments = segmentsOf(lookupIndex(ctx, request.params.index));
    return {
      engine: `yarrow ${ctx.version}`,
      segments: segments.map((s) => ({ name: s.name, maxDoc: s.maxDoc, codec: 'yarrow', files: s.files, delCount: s.maxDoc - s.liveDocs })),
      leaves: segments.map((s, ord) => ({ docBase: s.docBase, ord, numDocs: s.liveDocs, numDeletedDocs: s.maxDoc - s.liveDocs, fields: s.fields })),
    };
  });

  app.get('/v1/index', () => {
    const names = [...ctx.indexes.keys()];
    return { indexes: names, aliases: Object.fromEntries(names.map((n) => [n, aliasesOf(ctx, n)])) };
  });

  app.get('/v1/system/config', () => redactSecrets(options.config ?? {}));
}
