/**
 * Lossy one-byte encoding of a field length for BM25 (the idea of Lucene's SmallFloat.intToByte4).
 *
 * Codes 0..23 are the lengths 0..23 exactly: short fields dominate and BM25 is most sensitive there.
 * Above, x = length - 24 is kept as a tiny float with 4 significant bits: while x < 16 it is exact
 * (codes 24..39); otherwise the code stores the shift e that brings x into [8, 16) (x in
 * [2^(e+3), 2^(e+4))) and the 3 bits below the leading one, so code = 24 + 8*(e+1) + mantissa.
 * Decoding returns the smallest length of the code's bucket. Both directions are monotonic, and
 * code 255 covers lengths up to 2^31 - 1.
 */

/** Lengths below this are encoded exactly. */
export const EXACT_NORM_LENGTHS = 24;
const MAX_LENGTH = 0x7fff_ffff;

/** Quantises a field length (clamped to [0, 2^31-1]) to a byte, 0..255. */
export function lengthToNorm(length: number): number {
  if (length < EXACT_NORM_LENGTHS) return length <= 0 ? 0 : Math.floor(length);
  const x = Math.min(Math.floor(length), MAX_LENGTH) - EXACT_NORM_LENGTHS;
  const width = 32 - Math.clz32(x); // bits of x, > 0 here
  if (width <= 4) return EXACT_NORM_LENGTHS + x; // x < 16: the leading bit fits the 4-bit budget
  const e = width - 4;
  return EXACT_NORM_LENGTHS + ((e + 1) << 3) + ((x >>> e) & 7);
}

/** The smallest length that {@link lengthToNorm} maps to `norm`. */
export function normToLength(norm: number): number {
  if (norm < EXACT_NORM_LENGTHS) return norm;
  const code = norm - EXACT_NORM_LENGTHS;
  const e = (code >>> 3) - 1;
  const mantissa = code & 7;
  if (e <= 0) return EXACT_NORM_LENGTHS + code;
  return EXACT_NORM_LENGTHS + (8 + mantissa) * 2 ** e;
}
