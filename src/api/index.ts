/**
 * @module api
 * The HTTP service (SPEC §4): a fastify app over served indexes, for the `api`, `standalone` and
 * `search` modes. It may import the engine, storage and ingest code but never cli code; the modes
 * open the indexes and inject them.
 */
export { buildServer, allowedMethods } from './server.js';
export type { ServerDeps } from './server.js';
export type { ServerRole } from './route-context.js';
export { WritableIndex } from './served-index.js';
export type { ServedIndex, IndexEvents, IndexHealth, StorageTransfers } from './served-index.js';
export { FollowedIndex } from './followed-index.js';
export type { FollowOptions } from './followed-index.js';
export { ApiMetrics } from './metrics.js';
export { HttpError, HttpErrorType, httpStatuses, httpStatusOf } from './http-status.js';
export { errorResponse } from './error-body.js';
export { JsonValueSplitter } from '../engine/index.js';
export type { ParsedValue, ValueLocation } from '../engine/index.js';
export { indexBody } from './push-indexer.js';
export { DEFAULT_BODY_LIMIT, readBody, readWholeBody } from './request-body.js';
export { BearerAuth } from './bearer-auth.js';
export type { AuthScope, AuthTokens } from './bearer-auth.js';
export type { ServerModule, ModuleHost } from './server-module.js';
export { serve } from './serve.js';
export type { ServeOptions } from './serve.js';
