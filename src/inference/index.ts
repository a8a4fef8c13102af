/**
 * @module inference
 * Embedding models at the edge of the engine: the `inference.embedding` config, local ONNX models
 * (onnxruntime-node in a worker thread, @huggingface/tokenizers, hub downloads into a cache
 * directory), OpenAI-compatible endpoints, and an in-memory cache of vectors shared by queries and
 * documents. The engine sees these models only through its `Embedder` port
 * (src/engine/embedder.ts). It may import the engine's port but never api, cli, config or storage
 * code; config imports its schema (inference-config.ts), the one schema of the `inference` section.
 */
export { inferenceSchema, embeddingModelSchema, rankerModelSchema, completionModelSchema, cohereEmbeddingSchema, onnxEmbeddingSchema, openAiEmbeddingSchema, durationMs, DEFAULT_BATCH_SIZE, DEFAULT_MAX_TOKENS, DEFAULT_CACHE_BYTES, DEFAULT_CACHE_ENTRIES } from './inference-config.js';
export type { InferenceConfig, CohereEmbeddingConfig, EmbeddingModelConfig, OnnxEmbeddingConfig, OpenAiEmbeddingConfig, EmbeddingCacheConfig } from './inference-config.js';
export { EmbeddingModel } from './embedding-model.js';
export type { EmbedInputKind } from './embedding-model.js';
export { EmbeddingCache } from './embedding-cache.js';
export type { EmbeddingCacheStats } from './embedding-cache.js';
export { openEmbedder, openEmbedders, closeEmbedders } from './open-embedders.js';
export type { OpenEmbeddersOptions } from './open-embedders.js';
export { InferenceError, InferenceErrorCode } from './inference-error.js';
export { parseModelLocation } from './model-location.js';
export type { ModelLocation } from './model-location.js';
export { DEFAULT_HUB_ENDPOINT } from './model-files.js';
export { ONNX_RUNTIME_PACKAGE } from './onnx-model.js';
export type { Embedder, EmbedKind } from '../engine/embedder.js';
