/**
 * What every route handler shares: the served indexes, the server's role (which decides whether
 * writes and searches are served), logging, metrics and limits.
 */
import type { Logger } from '../engine/index.js';
import { HttpError, HttpErrorType } from './http-status.js';
import type { ApiMetrics } from './metrics.js';
import type { ServedIndex } from './served-index.js';

/** Which endpoints a server offers: `api` writes only, `search` reads only, `standalone` both. */
export type ServerRole = 'api' | 'standalone' | 'search';

/** Dependencies of the routes. */
export interface RouteContext {
  readonly role: ServerRole;
  readonly indexes: ReadonlyMap<string, ServedIndex>;
  readonly log: Logger;
  readonly metrics: ApiMetrics;
  /** Largest accepted request body, in bytes (received and decoded). */
  readonly bodyLimit: number;
  readonly version: string;
  /** Other names of the indexes (config `alias`), alias -> index name; none by default. */
  readonly aliases?: ReadonlyMap<string, string>;
}

/** True when the role serves `_index` and `_flush`. */
export function servesWrites(role: ServerRole): boolean {
  return role !== 'search';
}

/** True when the role serves `_search`. */
export function servesSearch(role: ServerRole): boolean {
  return role !== 'api';
}

/** Throws 405 when the role does not serve writes. */
export function requireWrites(ctx: RouteContext): void {
  if (!servesWrites(ctx.role)) {
    throw new HttpError(HttpErrorType.methodNotAllowed, `this server is read-only (yarrow ${ctx.role}): send writes to a yarrow api or standalone process`, { mode: ctx.role }, { allow: '' });
  }
}

/** Throws 405 when the role does not serve searches. */
export function requireSearch(ctx: RouteContext): void {
  if (!servesSearch(ctx.role)) {
    throw new HttpError(HttpErrorType.methodNotAllowed, `this server indexes only (yarrow ${ctx.role}): search a yarrow standalone or search process`, { mode: ctx.role }, { allow: '' });
  }
}

/**
 * The served index called `name`, or that has `name` as an alias: every route takes its index
 * through here, so an alias works wherever an index name does. 404 when there is none.
 */
export function lookupIndex(ctx: RouteContext, name: string): ServedIndex {
  const served = ctx.indexes.get(name) ?? ctx.indexes.get(ctx.aliases?.get(name) ?? '');
  // The message names the missing index only: which indexes exist is not told to a stranger.
  if (served === undefined) throw new HttpError(HttpErrorType.indexNotFound, `no index "${name}" on this server`, { index: name });
  return served;
}
