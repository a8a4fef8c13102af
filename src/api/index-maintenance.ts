/**
 * What the delete, merge, mapping and stats endpoints do, once for both API generations: the
 * legacy `/<index>/_delete`, `_merge`, `_mapping`, `_stats` routes and Nixiesearch 0.8's
 * `/v1/index/<index>/...` routes call these and differ only in the shape of their answers.
 */
import type { FastifyRequest } from 'fastify';
import { mappingToJson } from '../engine/index.js';
import type { SegmentFigures } from '../engine/index.js';
import { HttpError, HttpErrorType } from './http-status.js';
import { readJsonObject } from './json-body.js';
import { lookupIndex, requireWrites } from './route-context.js';
import type { RouteContext } from './route-context.js';
import { WritableIndex } from './served-index.js';
import type { ServedIndex } from './served-index.js';

/** Seconds since `started` (a `performance.now()` reading), as 0.8's `took`. */
export function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}

function checkKeys(body: Record<string, unknown>, allowed: readonly string[], what: string): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw new HttpError(HttpErrorType.invalidRequest, `${key}: unknown key of ${what}; expected ${allowed.join(' or ')}`, { field: key, expected: allowed.join(', ') });
  }
}

/** Makes deletes visible to the next search at once, as their answer says they happened. */
async function refreshAfterDelete(served: ServedIndex): Promise<void> {
  if (served instanceof WritableIndex) await served.refresh();
}

/**
 * Deletes the documents a `{"filters": {include, exclude}}` body selects. A body without
 * `filters` is a 400: Nixiesearch deletes everything then, Yarrow refuses (docs/nixiesearch.md).
 */
export async function deleteByFilter(ctx: RouteContext, name: string, request: FastifyRequest): Promise<{ deleted: number }> {
  requireWrites(ctx);
  const served = lookupIndex(ctx, name);
  const body = await readJsonObject(request, ctx.bodyLimit, 'the delete request');
  checkKeys(body, ['filters'], 'the delete request');
  const result = await served.index().deleteByFilter(body.filters);
  await refreshAfterDelete(served);
  return result;
}

/** Deletes the document with `_id` `id`; `deleted` is 0 when there was none. */
export async function deleteById(ctx: RouteContext, name: string, id: string): Promise<{ deleted: number }> {
  requireWrites(ctx);
  const served = lookupIndex(ctx, name);
  const result = await served.index().deleteByFilter({ include: { term: { _id: id } } });
  await refreshAfterDelete(served);
  return result;
}

/**
 * Merges down to `{"segments": N}` segments (default 1, an empty body allowed) and commits, so the
 * merged index is what a restart or a searcher sees. Resolves to the segment count after.
 */
export async function forceMerge(ctx: RouteContext, name: string, request: FastifyRequest): Promise<{ segments: number }> {
  requireWrites(ctx);
  const served = lookupIndex(ctx, name);
  const body = await readJsonObject(request, ctx.bodyLimit, 'the merge request');
  checkKeys(body, ['segments'], 'the merge request');
  const segments = body.segments ?? 1;
  if (typeof segments !== 'number' || !Number.isSafeInteger(segments) || segments < 1) {
    throw new HttpError(HttpErrorType.invalidRequest, `segments: expected an integer >= 1, got ${JSON.stringify(segments)}`, { field: 'segments', expected: 'integer >= 1', actual: typeof segments });
  }
  const index = served.index();
  await index.forceMerge(segments);
  await index.commit();
  return { segments: index.stats().segments };
}

/** The other names of index `name` (config `alias`). */
export function aliasesOf(ctx: RouteContext, name: string): string[] {
  return [...(ctx.aliases ?? new Map<string, string>())].filter(([, target]) => target === name).map(([alias]) => alias);
}

/** The mapping as 0.8 shows it: `{name, alias, fields: {<field>: {type, ...}}}`. */
export function mappingView(ctx: RouteContext, served: ServedIndex): Record<string, unknown> {
  const { fields } = mappingToJson(served.index().mapping) as { fields: { name: string }[] };
  return { name: served.name, alias: aliasesOf(ctx, served.name), fields: Object.fromEntries(fields.map(({ name, ...rest }) => [name, rest])) };
}

/** The segments of the snapshot searches see. */
export function segmentsOf(served: ServedIndex): SegmentFigures[] {
  return served.index().segmentFigures();
}
