/**
 * The config as the modes use it, whichever shape the file had: Yarrow's own sections, the server
 * settings of `core` (with environment overrides), and per index its aliases, store, writer
 * settings and whether its store is distributed. Lookups that merge per-index overrides with the
 * defaults live here, so no mode repeats them.
 */
import type { InferenceConfig } from '../inference/inference-config.js';
import type { IndexingConfig, IndexingOverride, StoreConfig, YarrowFileConfig } from './config-schema.js';

/** The log levels `core.loglevel` accepts (as the CLI's `-l`). */
export const CORE_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** Which of the two config shapes a file has. */
export type ConfigShape = 'yarrow' | 'nixiesearch';

/** Server settings from `core` and the environment; undefined means "not set" (the CLI decides). */
export interface CoreConfig {
  readonly host?: string;
  readonly port?: number;
  readonly loglevel?: 'debug' | 'info' | 'warn' | 'error';
  /** Where downloaded models and other caches go (`core.cache.dir`). */
  readonly cacheDir?: string;
}

/** One index of the `schema` section. */
export interface IndexConfig {
  /** Other names the index answers to. */
  readonly alias: readonly string[];
  /** The raw field specs; `LoadedConfig.mappings` holds them parsed. */
  readonly fields?: unknown;
  /** Overrides the top-level `store`. */
  readonly store?: StoreConfig | undefined;
  /** Overrides keys of the top-level `indexing`. */
  readonly indexing?: IndexingOverride | undefined;
  /**
   * Whether the store was declared `distributed` (Nixiesearch's shape): an indexer process and
   * searcher processes share it, so `standalone` refuses it, as Nixiesearch does.
   */
  readonly distributed: boolean;
}

/** A validated config, every default filled in. */
export interface Config {
  readonly shape: ConfigShape;
  readonly store: StoreConfig;
  readonly api?: YarrowFileConfig['api'] | undefined;
  readonly indexing: IndexingConfig;
  readonly core: CoreConfig;
  readonly inference?: InferenceConfig | undefined;
  readonly schema: Readonly<Record<string, IndexConfig>>;
}

/** The store index `name` lives in. */
export function storeOf(config: Config, name: string): StoreConfig {
  const index = config.schema[name] as IndexConfig | undefined;
  return index?.store ?? config.store;
}

/** The writer settings of index `name`: the top-level `indexing` with the index's overrides. */
export function indexingOf(config: Config, name: string): IndexingConfig {
  const index = config.schema[name] as IndexConfig | undefined;
  const own = index?.indexing ?? {};
  const merged: Record<string, unknown> = { ...config.indexing };
  for (const [key, value] of Object.entries(own)) if (value !== undefined) merged[key] = value;
  return merged as IndexingConfig;
}

/**
 * The index a name or alias refers to, or undefined. Every place that accepts an index name
 * (HTTP paths, `-i`) resolves it here, so aliases work everywhere.
 */
export function resolveIndexName(config: Config, nameOrAlias: string): string | undefined {
  if (Object.hasOwn(config.schema, nameOrAlias)) return nameOrAlias;
  for (const [name, index] of Object.entries(config.schema)) if (index.alias.includes(nameOrAlias)) return name;
  return undefined;
}
