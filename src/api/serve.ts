/**
 * Runs a server until its signal fires, then shuts down gracefully: stop accepting, let in-flight
 * requests finish, close every index (a writable one commits what is buffered), resolve 0.
 */
import { YarrowError } from '../engine/index.js';
import type { Logger } from '../engine/index.js';
import type { BearerAuth } from './bearer-auth.js';
import type { ApiMetrics } from './metrics.js';
import type { ServerRole } from './route-context.js';
import type { ServedIndex } from './served-index.js';
import { buildServer } from './server.js';
import type { EmbeddingModel } from '../inference/index.js';
import type { ServerModule } from './server-module.js';

/** What {@link serve} needs. */
export interface ServeOptions {
  readonly role: ServerRole;
  readonly host: string;
  readonly port: number;
  readonly indexes: ReadonlyMap<string, ServedIndex>;
  readonly metrics: ApiMetrics;
  readonly log: Logger;
  readonly version: string;
  readonly bodyLimit?: number;
  /** Bearer tokens (config `api.auth`). */
  readonly auth?: BearerAuth;
  /** Mounted parts (the plant store); closed after the indexes. */
  readonly modules?: readonly ServerModule[];
  /** Other names of the indexes (config `alias`), alias -> index name. */
  readonly aliases?: ReadonlyMap<string, string>;
  /** The loaded config, for `GET /v1/system/config` (secrets redacted there). */
  readonly config?: unknown;
  /** Config `api.cors.origins`; none: CORS off. */
  readonly corsOrigins?: readonly string[];
  /** Fires on SIGINT / SIGTERM. */
  readonly signal: AbortSignal;
  /** Embedding models served at `POST /inference/embedding/<model>`. */
  readonly embedders?: ReadonlyMap<string, EmbeddingModel>;
  /**
   * Told each start-up step as it ends (server built, listening, first request received and
   * answered): the CLI's start-up trace (issue 17). None: no hook is added.
   */
  readonly onStartupStep?: (step: string) => void;
}

/** Serves until `signal`; resolves to the exit code (0 after a graceful shutdown). */
export async function serve(options: ServeOptions): Promise<number> {
  const { log } = options;
  const { app, beginShutdown } = buildServer({
    role: options.role,
    indexes: options.indexes,
    log,
    version: options.version,
    metrics: options.metrics,
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    ...(options.auth === undefined ? {} : { auth: options.auth }),
    ...(options.modules === undefined ? {} : { modules: options.modules }),
    ...(options.aliases === undefined ? {} : { aliases: options.aliases }),
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.corsOrigins === undefined ? {} : { corsOrigins: options.corsOrigins }),
    ...(options.embedders === undefined ? {} : { embedders: options.embedders }),
  });
  if (options.onStartupStep !== undefined) traceFirstRequest(app, options.onStartupStep);
  const stopped = new Promise<void>((resolve) => {
    if (options.signal.aborted) resolve();
    else options.signal.addEventListener('abort', () => { resolve(); }, { once: true });
  });
  try {
    if (options.onStartupStep !== undefined) {
      // Traced only: the routes' set-up (fastify's ready) apart from binding the port; listen readies it anyway.
      await app.ready();
      options.onStartupStep('fastify ready');
    }
    await listen(app, options.host, options.port);
    options.onStartupStep?.('listening');
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : options.port;
    const names = [...options.indexes.keys()];
    if (options.role !== 'search' && options.auth?.configured !== true) {
      log.warn(`no API token is configured (api.auth): anyone who reaches this server can index, flush and delete; the plant store at /plants refuses every request. Set api.auth.tokens, or bind to 127.0.0.1 (README, "Deployment")`);
    }
    log.info(`yarrow ${options.role} listening on http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port} (indexes: ${names.length === 0 ? 'none' : names.join(', ')})`);
    await stopped;
    log.info('shutting down: finishing in-flight requests');
    beginShutdown();
    await app.close();
  } finally {
    for (const served of options.indexes.values()) {
      try {
        await served.close();
      } catch (e) {
        log.error(`closing index ${served.name} failed: ${(e as Error).message}`);
      }
    }
    for (const module of options.modules ?? []) {
      await module.close().catch((e: unknown) => { log.error(`closing ${module.prefix} failed: ${(e as Error).message}`); });
    }
  }
  log.info('shut down cleanly');
  return 0;
}

/** Tells `step` when the server is built, and when its first request arrives and has been answered. */
function traceFirstRequest(app: ReturnType<typeof buildServer>['app'], step: (name: string) => void): void {
  step('server built');
  let received = false;
  let answered = false;
  app.addHook('onRequest', (_request, _reply, done) => {
    if (!received) step('first request received');
    received = true;
    done();
  });
  app.addHook('onSend', (_request, _reply, payload, done) => {
    if (!answered) step('first response sending');
    done(null, payload);
  });
  app.addHook('onResponse', (_request, _reply, done) => {
    if (!answered) step('first response sent');
    answered = true;
    done();
  });
}

/** `app.listen`, with a port another process holds turned into one readable `address_in_use` error. */
async function listen(app: ReturnType<typeof buildServer>['app'], host: string, port: number): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    throw new YarrowError('address_in_use', `cannot listen on ${where}: the address is already in use (another process holds it; choose another port with -p)`, { host, port }, { cause: e });
  }
}
