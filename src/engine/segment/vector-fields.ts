/**
 * How a semantic field's mapping (`search.semantic`) becomes the parameters of its per-segment
 * vector index, in one place for flushes and merges.
 *
 * - `quantize`: float32 keeps float32; int8, int4 and int1 are stored as int8 (the one quantized
 *   encoding the vector codec has; int8 lost no measurable nDCG in the measurements).
 * - `distance`: cosine normalises vectors at indexing; dot scores raw dot products.
 * - `ef` is the graph's build beam width; below 100 it is raised to 100 (Lucene's default beam),
 *   since Nixiesearch's default 32 costs recall for little build time at segment sizes that get
 *   a graph at all (4,096 vectors and more).
 */
import type { SemanticMapping } from '../schema/text-options.js';
import { VectorEncoding, VectorSimilarity } from '../vector/quantization.js';
import type { VectorFieldOptions } from '../vector/vector-field-writer.js';
import type { VectorFieldInfo } from './segment-info.js';

/** Smallest HNSW build beam width used (see the module comment). */
export const MIN_EF_CONSTRUCTION = 100;

/** The segment-level record of a semantic field whose vectors have `dim` dimensions. */
export function vectorFieldInfo(field: string, semantic: SemanticMapping, dim: number): VectorFieldInfo {
  return { field, dim, m: semantic.m, efConstruction: Math.max(semantic.ef, MIN_EF_CONSTRUCTION) };
}

/** Writer options of a semantic field. */
export function vectorFieldOptions(semantic: SemanticMapping, info: VectorFieldInfo): VectorFieldOptions {
  return {
    dim: info.dim,
    similarity: semantic.distance === 'cosine' ? VectorSimilarity.cosine : VectorSimilarity.dot,
    encoding: semantic.quantize === 'float32' ? VectorEncoding.float32 : VectorEncoding.int8,
    m: info.m,
    efConstruction: info.efConstruction,
  };
}
