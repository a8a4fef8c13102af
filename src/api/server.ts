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
import type { EmbeddingModel } from '../inference/index.js';
import { BearerAuth } from './bearer-auth.js';
import type { AuthScope } from './bearer-auth.js';
import { errorResponse } from './error-body.js';
import { HttpError, HttpErrorType } from './http-status.js';
import { lazySchemaCompilers } from './lazy-schema-compilers.js';
import { ApiMetrics } from './metrics.js';
import { DEFAULT_BODY_LIMIT } from './request-body.js';
import type { RouteContext, ServerRole } from './route-context.js';
import { registerIndexRoutes } from './routes/index-routes.js';
import { registerInferenceRoutes } from './routes/inference-routes.js';
import { registerMaintenanceRoutes } from './routes/maintenance-routes.js';
import { registerSearchRoutes } from './routes/search-routes.js';
import { registerSuggestRoutes } from './routes/suggest-routes.js';
import { registerSystemRoutes } from './routes/system-routes.js';
import { registerUiRoutes } from './routes/ui-routes.js';
import { registerV1Routes } from './routes/v1-routes.js';
import type { ServedIndex } from './served-index.js';
import type { ServerModule } from './server-module.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a protected route needs; by default `read` for GET and HEAD, `write` for the rest. */
    auth?: AuthScope;
  }
}

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
  /** Bearer tokens (config `api.auth`); none configured by default, so everything is open. */
  readonly auth?: BearerAuth;
  /** Parts mounted by the command line (the plant store at `/plants`), merged into `/openapi.json`. */
  readonly modules?: readonly ServerModule[];
  /** Embedding models (`inference.embedding`), served at `POST /inference/embedding/<model>`. */
  readonly embedders?: ReadonlyMap<string, EmbeddingModel>;
  /** Other names of the indexes (config `alias`), alias -> index name. */
  readonly aliases?: ReadonlyMap<string, string>;
  /** The loaded config, shown with secrets redacted at `GET /v1/system/config`. */
  readonly config?: unknown;
  /** Origins browsers may call from (config `api.cors.origins`; `*` for any); none: CORS off. */
  readonly corsOrigins?: readonly string[];
}

/** Paths the server knows and the methods each answers (HEAD comes with GET); each is in /openapi.json. */
export const KNOWN_PATHS: readonly { readonly pattern: RegExp; readonly methods: readonly string[] }[] = [
  { pattern: /^\/$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/(_health|health|_indexes|metrics|openapi\.json)$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/ui\/[^/]+$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/[^/_][^/]*\/_index$/, methods: ['POST', 'PUT'] },
  { pattern: /^\/[^/_][^/]*\/_flush$/, methods: ['POST'] },
  { pattern: /^\/[^/_][^/]*\/_search$/, methods: ['GET', 'HEAD', 'POST'] },
  { pattern: /^\/[^/_][^/]*\/_suggest$/, methods: ['GET', 'HEAD', 'POST'] },
  { pattern: /^\/v1\/index\/[^/]+\/suggest$/, methods: ['POST'] },
  { pattern: /^\/inference\/embedding\/[^/]+$/, methods: ['POST'] },
  { pattern: /^\/[^/_][^/]*\/_delete$/, methods: ['POST'] },
  { pattern: /^\/[^/_][^/]*\/_delete\/[^/]+$/, methods: ['DELETE'] },
  { pattern: /^\/[^/_][^/]*\/_merge$/, methods: ['POST'] },
  { pattern: /^\/[^/_][^/]*\/_(mapping|stats)$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/v1\/(index|system\/config)$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/v1\/index\/[^/]+$/, methods: ['GET', 'HEAD', 'POST'] },
  { pattern: /^\/v1\/index\/[^/]+\/(flush|merge|delete|search)$/, methods: ['POST'] },
  { pattern: /^\/v1\/index\/[^/]+\/stats$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/v1\/index\/[^/]+\/doc\/[^/]+$/, methods: ['DELETE'] },
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
  const ctx: RouteContext = { role: deps.role, indexes: deps.indexes, log: deps.log, metrics, bodyLimit: deps.bodyLimit ?? DEFAULT_BODY_LIMIT, version: deps.version, aliases: deps.aliases ?? new Map() };
  const app = fastify({ logger: false, bodyLimit: ctx.bodyLimit, forceCloseConnections: 'idle', return503OnClosing: true, schemaController: { compilersFactory: lazySchemaCompilers() } });

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
    // A known path with an allowed method got here because no route took it (`/ui/<not an asset name>`): 404, not a 405 that allows the very method.
    if (methods === null || methods.includes(request.method)) throw new HttpError(HttpErrorType.notFound, `no such endpoint: ${request.method} ${request.url.split('?')[0]} (see /openapi.json)`);
    throw new HttpError(HttpErrorType.methodNotAllowed, `${request.method} is not allowed on ${request.url.split('?')[0]} (allowed: ${methods.join(', ')})`, { method: request.method }, { allow: methods.join(', ') });
  });

  // CORS is off unless origins are configured (Nixiesearch allows every origin): a browser page
  // elsewhere must not drive a server that trusts its network. Preflights answer before `protect`.
  if (deps.corsOrigins !== undefined && deps.corsOrigins.length > 0) {
    const origins = deps.corsOrigins;
    // Imported here, not at the top: a server without CORS (the default) does not load the plugin (issue 17: start-up).
    void app.register(import('@fastify/cors'), { origin: origins.includes('*') ? '*' : [...origins], methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'], allowedHeaders: ['authorization', 'content-type', 'content-encoding'] });
  }
  const auth = deps.auth ?? new BearerAuth({});
  const modules = deps.modules ?? [];
  // The search page and its assets are open, like the system routes: the page asks the API itself.
  registerUiRoutes(app, ctx);
  const withModules = modules.find((m) => m.openApi !== undefined);
  // Built on the first GET /openapi.json, not at start: the document and its JSON text were ~3-5 ms
  // of CPU of every server start, and the modules that describe it ~0.7 ms more to load (issue 17:
  // `yarrow search`'s start to first answer).
  let openApiText: Promise<string> | undefined;
  const openApi = (): Promise<string> => {
    openApiText ??= import('./openapi.js').then(({ openApiDocument }) => {
      const service = openApiDocument(ctx.role, ctx.version);
      return withModules?.openApi === undefined ? JSON.stringify(service) : withModules.openApi(service);
    });
    // A failure is not kept: the next request builds it again.
    openApiText.catch(() => { openApiText = undefined; });
    return openApiText;
  };
  // System routes stay open (health probes, scrapers); modules authenticate their own requests.
  registerSystemRoutes(app, ctx, openApi);
  for (const module of modules) module.register(app, { log: ctx.log, bodyLimit: ctx.bodyLimit, auth });
  void app.register((scope, _options, done) => {
    protect(scope, auth);
    registerIndexRoutes(scope, ctx);
    registerSearchRoutes(scope, ctx);
    registerSuggestRoutes(scope, ctx);
    registerInferenceRoutes(scope, ctx, deps.embedders ?? new Map());
    registerMaintenanceRoutes(scope, ctx);
    registerV1Routes(scope, ctx, { config: deps.config });
    // An index named like a module's prefix (`plants`) keeps its endpoints under static paths.
    for (const module of modules) {
      const name = module.prefix.slice(1);
      if (ctx.indexes.has(name)) {
        registerIndexRoutes(scope, ctx, name);
        registerSearchRoutes(scope, ctx, name);
        registerMaintenanceRoutes(scope, ctx, name);
      }
    }
    done();
  });
  return { app, metrics, beginShutdown: () => { closing = true; } };
}

/**
 * Puts every route of `scope` behind `auth`: with tokens configured a write needs a write token,
 * and with read tokens configured a read needs a token too. Routes say which scope they need in
 * their `config.auth`; a route that does not is a read for GET and HEAD and a write otherwise, so
 * a new write route is protected without anyone remembering to.
 */
function protect(scope: FastifyInstance, auth: BearerAuth): void {
  if (!auth.configured) return;
  scope.addHook('onRequest', (request, _reply, done) => {
    const needed: AuthScope = request.routeOptions.config.auth ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write');
    if (needed === 'read' && !auth.protectsReads) {
      done();
      return;
    }
    try {
      auth.check(request.headers.authorization, needed);
      done();
    } catch (e) {
      done(e as Error);
    }
  });
}
