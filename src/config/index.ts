/**
 * @module config
 * The config file (SPEC §2): YAML loading with `${VAR}` substitution, the zod schema with its
 * defaults, and errors that name file, line and path. It may import the engine's public surface
 * (to validate mappings with the engine's own parser) but never storage, ingest, api or cli code.
 */
export { loadConfig, parseConfig } from './load-config.js';
export type { Env, LoadedConfig } from './load-config.js';
export { configSchema, storeSchema, FIELD_TYPES, DEFAULT_STORE_PATH } from './config-schema.js';
export type { Config, IndexConfig, IndexingConfig, StoreConfig } from './config-schema.js';
export { ConfigError, INVALID_CONFIG } from './config-error.js';
export type { ConfigErrorDetails } from './config-error.js';
export { substituteEnv, SubstitutionError } from './env-substitution.js';
