/**
 * Pooling: a transformer's token vectors (`last_hidden_state`, rows x tokens x dims) become one
 * vector per text, by the CLS token, the last real token (decoder models such as Qwen3) or the mean
 * of the real (unpadded) tokens, optionally
 * L2-normalised so a dot product is a cosine. Plain loops over typed arrays.
 */
import type { Pooling } from './model-defaults.js';

/**
 * Pools `hidden` (row-major `[rows, seq, dims]`) into `out` (row-major `[rows, dims]`); `lengths[r]`
 * is row r's count of real tokens (padding comes after them).
 */
export function poolInto(out: Float32Array, hidden: Float32Array, rows: number, seq: number, dims: number, lengths: ArrayLike<number>, pooling: Pooling, normalize: boolean): void {
  for (let r = 0; r < rows; r++) {
    const o = r * dims;
    const base = r * seq * dims;
    if (pooling === 'cls') {
      for (let d = 0; d < dims; d++) out[o + d] = hidden[base + d];
    } else if (pooling === 'last') {
      // Padding comes after the real tokens, so the last real token is at length - 1.
      const last = base + Math.max(0, lengths[r] - 1) * dims;
      for (let d = 0; d < dims; d++) out[o + d] = hidden[last + d];
    } else {
      const n = lengths[r];
      for (let d = 0; d < dims; d++) out[o + d] = 0;
      for (let t = 0; t < n; t++) {
        const h = base + t * dims;
        for (let d = 0; d < dims; d++) out[o + d] += hidden[h + d];
      }
      const inv = n > 0 ? 1 / n : 0;
      for (let d = 0; d < dims; d++) out[o + d] *= inv;
    }
    if (normalize) normalizeRow(out, o, dims);
  }
}

/** L2-normalises `v[offset .. offset + dims)` in place (a zero vector stays zero). */
export function normalizeRow(v: Float32Array, offset: number, dims: number): void {
  let sum = 0;
  for (let d = 0; d < dims; d++) sum += v[offset + d] * v[offset + d];
  if (sum === 0) return;
  const inv = 1 / Math.sqrt(sum);
  for (let d = 0; d < dims; d++) v[offset + d] *= inv;
}
