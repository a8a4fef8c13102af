/**
 * `yarrow api` / `yarrow index api`: the push endpoints over HTTP (SPEC §4.2), no search (search
 * routes answer 405). Also home of {@link runServerMode}, which the three HTTP modes share: load the
 * config, open every index of its schema (writable, or followed read-only), serve until a signal.
 */
import { readFileSync } from 'node:fs';
import { ApiMetrics, BearerAuth, DEFAULT_BODY_LIMIT, FollowedIndex, WritableIndex, serve } from '../../api/index.js';
import type { ServedIndex, ServerModule, ServerRole } from '../../api/index.js';
// Not the config barrel: a cached config loads neither yaml nor zod (config-cache.ts, issue 17).
import { loadConfigCached } from '../../config/config-cache.js';
import { indexingOf, storeOf } from '../../config/config-model.js';
import type { Config } from '../../config/index.js';
import { ErrorCode, Index, YarrowError } from '../../engine/index.js';
import type { Logger } from '../../engine/index.js';
import { engineLogger } from '../cli-logger.js';
import { markStartup, startupTracing } from '../startup-trace.js';
import { UsageError } from '../usage-error.js';
import type { ModeContext, ServerOptions } from './mode-context.js';
import { modelsOf, openModels } from './open-models.js';
import type { OpenedModels } from './open-models.js';
import { openStore } from './open-store.js';
import { compileOnWorkerThreads, markOnCollectingThreads, tuneHeapForServing } from './serving-heap.js';
import { serverWriterTuning } from './writer-tuning.js';
import type { OpenStoreOptions, OpenedStore } from './open-store.js';

/** Runs `api` (also reached as `index api`). */
export function runApi(options: ServerOptions, ctx: ModeContext): Promise<number> {
  return runServerMode('api', options, ctx);
}

/**
 * Tunables not (yet) in the config file, read from the environment: YARROW_BODY_LIMIT (bytes,
 * default 100 MB), YARROW_REFRESH_INTERVAL_MS (default 1000), YARROW_POLL_INTERVAL_MS (search
 * mode's fallback poll for new commits, default 1000), YARROW_REOPEN_DELAY_MS (first wait before a
 * writer stopped by an I/O failure tries to reopen itself, default 250; it doubles up to 10 s).
 */
function envNumber(ctx: ModeContext, name: string, fallback: number): number {
  const raw = ctx.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

/** Loads the config, opens the indexes for `role`, and serves them until ctx.signal fires. */
export async function runServerMode(role: ServerRole, options: ServerOptions, ctx: ModeContext): Promise<number> {
  markStartup('mode loaded');
  if (options.config === undefined) throw new UsageError(`yarrow ${role} needs a config: -c, --config <path>`);
  tuneHeapForServing();
  // Before the indexes open and start their inversion and merge threads.
  if (role !== 'search') {
    compileOnWorkerThreads();
    markOnCollectingThreads();
  }
  const loaded = await loadConfigCached(options.config, ctx.env);
  markStartup('config loaded');
  // Command-line flags win over `core` (and its YARROW_CORE_* / NIXIESEARCH_CORE_* overrides).
  const { core } = loaded.config;
  const given = new Set(options.explicit ?? ['host', 'port', 'loglevel']);
  const host = given.has('host') ? options.host : (core.host ?? options.host);
  const port = given.has('port') ? options.port : (core.port ?? options.port);
  if (!given.has('loglevel') && core.loglevel !== undefined) ctx.log.level = core.loglevel;
  if (role === 'standalone') refuseDistributed(loaded.config);
  const log = engineLogger(ctx.log);
  const bodyLimit = envNumber(ctx, 'YARROW_BODY_LIMIT', DEFAULT_BODY_LIMIT);
  const refreshMs = envNumber(ctx, 'YARROW_REFRESH_INTERVAL_MS', 1000);
  const pollMs = envNumber(ctx, 'YARROW_POLL_INTERVAL_MS', 1000);
  const reopenMs = envNumber(ctx, 'YARROW_REOPEN_DELAY_MS', 250);
  const served = new Map<string, ServedIndex>();
  const stores: OpenedStore[] = [];
  const metrics = new ApiMetrics(() => served.values());
  // A writer that loses its S3 write lease stops: it shuts the server down and exits non-zero.
  const leaseLost = new AbortController();
  const lease: { lost: string | null } = { lost: null };
  const onLeaseLost = (index: string) => (reason: string): void => {
    lease.lost = `the write lease of index ${index} was lost (${reason})`;
    log.error(`${lease.lost}: shutting down without publishing anything more`);
    leaseLost.abort();
  };
  let code: number;
  let plants: ServerModule | undefined;
  // Searching modes also serve POST /inference/embedding/<model>, so they open every configured model.
  let models: OpenedModels | undefined;
  try {
    try {
      models = await openModels(loaded.config, role === 'api' ? modelsOf(loaded.mappings.values()) : 'all', ctx);
      const embedders = models.embedders;
      // The plant store (and lossless-json with it) is loaded by the writing modes only: `search`
      // never serves it, and its start-up is measured to its first answer (issue 17).
      if (role !== 'search') plants = await openPlants(loaded.config, log, stores, (dir) => ({ onLeaseLost: onLeaseLost(dir), env: ctx.env }));
      for (const [name, mapping] of loaded.mappings) {
        const store = await openStore(storeOf(loaded.config, name), name, {
          readOnly: role === 'search',
          onLeaseLost: onLeaseLost(name),
          env: ctx.env,
        });
        stores.push(store);
        markStartup(`store of ${name} opened`);
        if (role === 'search') {
          if (store.location.startsWith('memory:')) throw new UsageError(`yarrow search serves indexes built before, but index ${name} uses a memory store`);
          const followed = new FollowedIndex(
            name,
            store.dir,
            { watchPath: store.localPath, pollIntervalMs: indexingOf(loaded.config, name).refresh_interval_ms ?? store.pollIntervalMs ?? pollMs, embedders, ...(store.transfers === undefined ? {} : { transfers: store.transfers }) },
            metrics,
            log,
          );
          served.set(name, followed);
          await followed.start();
          markStartup(`index ${name} opened`);
        } else {
          // The engine's reader refreshes every refreshMs (metrics read the count from its stats).
          // The indexer-only role never searches: id-only segment readers keep its memory flat.
          const indexing = indexingOf(loaded.config, name);
          const index = await Index.open(store.dir, { name, mapping, logger: log, refreshIntervalMs: indexing.refresh_interval_ms ?? refreshMs, searchable: role !== 'api', writer: serverWriterTuning(indexing), embedders, reopenBackoff: { firstMs: reopenMs, maxMs: Math.max(reopenMs, 10_000) } });
          served.set(name, new WritableIndex(name, index, store.localPath, store.transfers));
          ctx.log.info(`opened index ${name} (${store.location}) at seq=${index.stats().seq}`);
          markStartup(`index ${name} opened`);
        }
      }
    } catch (e) {
      for (const s of served.values()) await s.close().catch(() => undefined);
      await plants?.close().catch(() => undefined);
      await models?.close().catch(() => undefined);
      throw e;
    }
    const signal = AbortSignal.any([ctx.signal, leaseLost.signal]);
    code = await serve({
      role,
      host,
      port,
      indexes: served,
      metrics,
      log,
      version: packageVersion(),
      bodyLimit,
      signal,
      auth: new BearerAuth({ tokens: loaded.config.api?.auth?.tokens ?? [], writeTokens: loaded.config.api?.auth?.write_tokens ?? [], readTokens: loaded.config.api?.auth?.read_tokens ?? [] }),
      ...(plants === undefined ? {} : { modules: [plants] }),
      aliases: aliasesOf(loaded.config),
      config: loaded.config,
      corsOrigins: loaded.config.api?.cors?.origins ?? [],
      embedders: models.models,
      ...(startupTracing() ? { onStartupStep: markStartup } : {}),
    });
  } finally {
    for (const store of stores) store.close();
    // After serve() closed the indexes, so no write or search still waits on a model.
    await models?.close();
  }
  if (lease.lost !== null) throw new YarrowError(ErrorCode.lockHeld, lease.lost);
  return code;
}

/**
 * `standalone` serves one process's own indexes; a distributed store (Nixiesearch's
 * `store.distributed`) is shared by an indexer and searchers, so it is refused, as in Nixiesearch.
 */
function refuseDistributed(config: Config): void {
  const distributed = Object.entries(config.schema).filter(([, index]) => index.distributed).map(([name]) => name);
  if (distributed.length === 0) return;
  throw new UsageError(
    `yarrow standalone cannot serve index ${distributed.join(', ')}: its store is distributed (schema.${distributed[0]}.store.distributed), which needs an indexer and searchers: run 'yarrow index api' (or 'index file' / 'index kafka') and 'yarrow search', or use a local store`,
  );
}

/**
 * The sample plant store: its own index (directory `_plants`, a name no index of the schema can
 * take, so an index called `plants` keeps its own storage) in `api.plants.store`, else the
 * top-level store.
 */
async function openPlants(config: Config, log: Logger, stores: OpenedStore[], options: (dir: string) => OpenStoreOptions): Promise<ServerModule> {
  const { PLANT_STORE_DIR, PlantRepository, plantStoreModule } = await import('../../plants/index.js');
  const store = await openStore(config.api?.plants?.store ?? config.store, PLANT_STORE_DIR, options(PLANT_STORE_DIR));
  stores.push(store);
  const repository = await PlantRepository.open(store.dir, log);
  log.info(`opened the plant store (${store.location})`);
  return plantStoreModule(repository);
}

/** alias -> index name, for every `alias` of the schema (the config loader checked they are unique). */
function aliasesOf(config: Config): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, index] of Object.entries(config.schema)) for (const alias of index.alias) out.set(alias, name);
  return out;
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
