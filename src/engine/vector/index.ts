/**
 * @module engine/vector
 * Vector search inside a segment: distance kernels (WebAssembly SIMD with a JavaScript fallback),
 * int8 scalar quantization, an HNSW graph on flat typed arrays, and the per-segment vectors and
 * graph files. Like the rest of the engine it does no I/O of its own: files go through the
 * Directory port. It must never import from storage, ingest, api or cli.
 */
export { VectorFieldWriter, DEFAULT_GRAPH_THRESHOLD, type VectorFieldOptions, type VectorFieldFiles } from './vector-field-writer.js';
export { VectorFieldReader, type VectorSearchOptions, type VectorHits, type VectorFieldOpenOptions } from './vector-field-reader.js';
export { BlockCache, DEFAULT_CACHE_BYTES, DEFAULT_PAGE_SIZE, type BlockCacheOptions, type BlockCacheStats } from './block-cache.js';
export { configureVectorCache, sharedVectorCache, vectorCacheStats } from './shared-block-cache.js';
export { VectorEncoding, VectorSimilarity } from './quantization.js';
export { KernelKind, wasmSimdAvailable } from './kernels/distance-kernels.js';
export { VECTORS_MAGIC, VECTORS_VERSION } from './codec/vectors-file.js';
export { HNSW_MAGIC, HNSW_VERSION } from './codec/hnsw-graph-file.js';
