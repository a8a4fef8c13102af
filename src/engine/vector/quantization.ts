/**
 * Scalar quantization to int8 with one scale per vector (symmetric, no offset): code = round(x / s)
 * with s = max|x| / 127, so a dot product is estimated as s_a * s_b * (codes_a · codes_b), summed
 * exactly in int32. A per-vector scale keeps every vector's full 8 bits whatever its norm; cosine
 * vectors are normalised first, so all scales are alike and the estimate is as good as Lucene's
 * global-quantile scheme on them (measured: recall in bench/vectors). Codes stay in [-127, 127]:
 * never -128, so a product fits an int16 lane in the SIMD kernel.
 */

/** How a field's vectors are compared: cosine (normalised at indexing, then dot) or raw dot product. */
export const VectorSimilarity = { cosine: 'cosine', dot: 'dot' } as const;
export type VectorSimilarity = (typeof VectorSimilarity)[keyof typeof VectorSimilarity];

/** How a field's vectors are stored: float32, or int8 codes with a per-vector scale (the default). */
export const VectorEncoding = { float32: 'float32', int8: 'int8' } as const;
export type VectorEncoding = (typeof VectorEncoding)[keyof typeof VectorEncoding];

/** Largest code magnitude. */
export const INT8_MAX_CODE = 127;

/**
 * Scales `v` in place to unit length (cosine similarity becomes a dot product). A zero vector stays
 * zero: it matches nothing better than anything else, instead of becoming NaN.
 */
export function normalizeInPlace(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  if (s === 0) return v;
  const inv = 1 / Math.sqrt(s);
  for (let i = 0; i < v.length; i++) v[i] *= inv;
  return v;
}

/**
 * Writes the int8 codes of `v` to `codes` (from `offset`, `v.length` bytes) and returns the scale
 * that turns codes back into values (0 for a zero vector).
 */
export function quantizeInt8(v: Float32Array, codes: Int8Array, offset: number): number {
  let max = 0;
  for (let i = 0; i < v.length; i++) {
    const a = Math.abs(v[i]);
    if (a > max) max = a;
  }
  const scale = Math.fround(max / INT8_MAX_CODE);
  // A vector so small that its scale underflows float32 is stored as zero, like a zero vector.
  if (scale === 0) {
    codes.fill(0, offset, offset + v.length);
    return 0;
  }
  const inv = INT8_MAX_CODE / max;
  for (let i = 0; i < v.length; i++) {
    const c = Math.round(v[i] * inv);
    codes[offset + i] = c > INT8_MAX_CODE ? INT8_MAX_CODE : c < -INT8_MAX_CODE ? -INT8_MAX_CODE : c;
  }
  return scale;
}

/** The float values int8 `codes` (from `offset`, `dim` bytes) with `scale` stand for. */
export function dequantizeInt8(codes: Int8Array, offset: number, dim: number, scale: number, out = new Float32Array(dim)): Float32Array {
  for (let i = 0; i < dim; i++) out[i] = codes[offset + i] * scale;
  return out;
}
