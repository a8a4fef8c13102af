/**
 * The legacy routes of deletes, merges, mapping and stats, in the seed's style (`result`, `took`
 * in ms): `POST /<index>/_delete` (by filter), `DELETE /<index>/_delete/<id>`,
 * `POST /<index>/_merge`, `GET /<index>/_mapping`, `GET /<index>/_stats`. The work is in
 * index-maintenance.ts, shared with the `/v1` routes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { mappingToJson } from '../../engine/index.js';
import { aliasesOf, deleteByFilter, deleteById, forceMerge, segmentsOf } from '../index-maintenance.js';
import { lookupIndex } from '../route-context.js';
import type { RouteContext } from '../route-context.js';
import { figures } from './search-routes.js';

type IndexRequest = FastifyRequest<{ Params: { index: string } }>;

const msSince = (started: number): number => Math.round(performance.now() - started);

/**
 * Registers the routes above for every index (`/:index/...`), or, given `only`, for that one index
 * under its literal name (a module mounted at the index's name, see registerIndexRoutes).
 */
export function registerMaintenanceRoutes(app: FastifyInstance, ctx: RouteContext, only?: string): void {
  const base = only === undefined ? '/:index' : `/${only}`;
  const nameOf = (request: FastifyRequest<{ Params: { index?: string } }>): string => only ?? request.params.index ?? '';
  app.post(`${base}/_delete`, async (request: IndexRequest) => {
    const started = performance.now();
    const { deleted } = await deleteByFilter(ctx, nameOf(request), request);
    return { result: 'deleted', deleted, took: msSince(started) };
  });

  app.delete(`${base}/_delete/:id`, async (request: FastifyRequest<{ Params: { index: string; id: string } }>) => {
    const started = performance.now();
    const { deleted } = await deleteById(ctx, nameOf(request), request.params.id);
    return { result: deleted === 0 ? 'not_found' : 'deleted', deleted, took: msSince(started) };
  });

  app.post(`${base}/_merge`, async (request: IndexRequest) => {
    const started = performance.now();
    const { segments } = await forceMerge(ctx, nameOf(request), request);
    return { result: 'merged', segments, took: msSince(started) };
  });

  app.get(`${base}/_mapping`, (request: IndexRequest) => {
    const served = lookupIndex(ctx, nameOf(request));
    return { name: served.name, aliases: aliasesOf(ctx, served.name), mapping: mappingToJson(served.index().mapping) };
  });

  app.get(`${base}/_stats`, (request: IndexRequest) => {
    const served = lookupIndex(ctx, nameOf(request));
    const segments = segmentsOf(served).map((s) => ({ name: s.name, docs: s.liveDocs, deleted: s.maxDoc - s.liveDocs, size: s.sizeBytes, files: s.files }));
    return { ...figures(served), segment_list: segments };
  });
}
