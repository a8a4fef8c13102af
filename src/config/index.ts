/**
 * @module config
 * The config file (SPEC §2): YAML loading with `${VAR}` substitution, Yarrow's own shape and
 * Nixiesearch 0.8's read into one config model, environment overrides of the server settings, and
 * errors that name file, line and path (all of them at once). It may import the engine's public
 * surface (to check mappings with the engine's own parser) but never storage, ingest, api or cli code.
 */
export { loadConfig, parseConfig } from './load-config.js';
export type { Env, LoadedConfig } from './load-config.js';
export { configSchema, storeSchema, DEFAULT_STORE_PATH } from './config-schema.js';
export type { IndexingConfig, IndexingOverride, StoreConfig, YarrowFileConfig } from './config-schema.js';
export { indexingOf, resolveIndexName, storeOf } from './config-model.js';
export type { Config, ConfigShape, CoreConfig, IndexConfig } from './config-model.js';
export { nixiesearchConfigSchema } from './nixiesearch-schema.js';
export { NIXIESEARCH_STORE_PATH } from './nixiesearch-config.js';
export { inferenceSchema } from '../inference/inference-config.js';
export type { InferenceConfig } from '../inference/inference-config.js';
export { ConfigError, INVALID_CONFIG } from './config-error.js';
export type { ConfigErrorDetails, ConfigProblem } from './config-error.js';
export { substituteEnv, SubstitutionError } from './env-substitution.js';
