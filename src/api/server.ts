/**
 * Builds the fastify app from injected dependencies: the served indexes, the role (which endpoints
 * answer), logging, metrics and the body limit. Every body reaches the routes as a raw stream,
 * whatever its Content-Type (SPEC §4.2: curl sends JSONL as form data), and routes read it
 * themselves under the limit. Errors become SPEC §4.1 bodies; a path that exists with another
 * method answers 405 with Allow, any other path 404.
 */
import { fastify } from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../engine/index.js';
import { openApiWithPlants, registerPlantRoutes } from '../plants/index.js';
import type { PlantService } from '../plants/index.js';
import { errorResponse } from './error-body.js';
import { HttpError, HttpErrorType } from './http-status.js';
import { ApiMetrics } from './metrics.js';
import { openApiDocument } from './openapi.js';
import { DEFAULT_BODY_LIMIT } from './request-body.js';
import type { RouteContext, ServerRole } from './route-context.js';
import { registerIndexRoutes } from './routes/index-routes.js';
import { registerSearchRoutes } from './routes/search-routes.js';
import { registerSystemRoutes } from './routes/system-routes.js';
import { registerUiRoutes } from './routes/ui-routes.js';
import type { ServedIndex } from './served-index.js';

/** What {@link buildServer} needs. */
export interface ServerDeps {
  readonly role: ServerRole;
  readonly indexes: ReadonlyMap<string, ServedIndex>;
  readonly log: Logger;
  readonly version: string;
  /** Default {@link DEFAULT_BODY_LIMIT}. */
  readonly bodyLimit?: number;
  /** Metrics to report into; a fresh registry by default. */
  readonly metrics?: ApiMetrics;
  /** The sample plant store, mounted at `/plants` and merged into `/openapi.json` (api, standalone). */
  readonly plants?: PlantService;
}

/** Paths the server knows and the methods each answers (HEAD comes with GET). */
const KNOWN_PATHS: readonly { readonly pattern: RegExp; readonly methods: readonly string[] }[] = [
  { pattern: /^\/$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/(_health|_indexes|metrics|openapi\.json)$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/ui\/[^/]+$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/[^/_][^/]*\/_index$/, methods: ['POST', 'PUT'] },
  { pattern: /^\/[^/_][^/]*\/_flush$/, methods: ['POST'] },
  { pattern: /^\/[^/_][^/]*\/_search$/, methods: ['GET', 'HEAD', 'POST'] },
  { pattern: /^\/[^/_][^/]*$/, methods: ['GET', 'HEAD'] },
];

/** The methods `path` answers, or null for an unknown path. */
export function allowedMethods(path: string): readonly string[] | null {
  const bare = path.split('?')[0];
  return KNOWN_PATHS.find((p) => p.pattern.test(bare))?.methods ?? null;
}

/** The app, routes registered, not yet listening. */
export function buildServer(deps: ServerDeps): { app: FastifyInstance; metrics: ApiMetrics; beginShutdown: () => void } {
  const metrics = deps.metrics ?? new ApiMetrics(() => deps.indexes.values());
  const ctx: RouteContext = { role: deps.role, indexes: deps.indexes, log: deps.log, metrics, bodyLimit: deps.bodyLimit ?? DEFAULT_BODY_LIMIT, version: deps.version };
  const app = fastify({ logger: false, bodyLimit: ctx.bodyLimit, forceCloseConnections: 'idle', return503OnClosing: true });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => { done(null, payload); });

  let closing = false;
  // Responses sent while shutting down close their connection: a keep-alive connection would
  // otherwise hold app.close() open until its idle timeout.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onRequest', (request, _reply, done) => {
    ctx.log.debug(`${request.method} ${request.url} started`);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const seconds = reply.elapsedTime / 1000;
    metrics.observeRequest(request.method, route, reply.statusCode, seconds);
    ctx.log.info(`${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`);
    done();
  });

  app.setErrorHandler(async (error, request, reply) => {
    const r = errorResponse(error);
    if (r.unexpected) {
      const e = error as Error;
      ctx.log.error(`${request.method} ${request.url} failed: ${e.stack ?? e.message}`);
    }
    return reply.code(r.status).headers(r.headers).send(r.body);
  });

  app.setNotFoundHandler((request) => {
    const methods = allowedMethods(request.url);
    if (methods === null) throw new HttpError(HttpErrorType.notFound, `no such endpoint: ${request.method} ${request.url.split('?')[0]} (see /openapi.json)`);
    throw new HttpError(HttpErrorType.methodNotAllowed, `${request.method} is not allowed on ${request.url.split('?')[0]} (allowed: ${methods.join(', ')})`, { method: request.method }, { allow: methods.join(', ') });
  });

  const service = openApiDocument(ctx.role, ctx.version);
  registerUiRoutes(app, ctx);
  registerSystemRoutes(app, ctx, deps.plants === undefined ? JSON.stringify(service) : openApiWithPlants(service));
  if (deps.plants !== undefined) registerPlantRoutes(app, deps.plants, ctx.log, ctx.bodyLimit);
  registerIndexRoutes(app, ctx);
  registerSearchRoutes(app, ctx);
  return { app, metrics, beginShutdown: () => { closing = true; } };
}
