/**
 * BM25 exactly as Lucene computes it (BM25Similarity since Lucene 8): for a term with document
 * frequency `n` in a field that `N` docs have,
 *
 *   idf   = ln(1 + (N - n + 0.5) / (n + 0.5))
 *   score = boost * idf * tf / (tf + k1 * (1 - b + b * dl / avgdl))
 *
 * where `dl` is the field length decoded from its one-byte norm and avgdl = sumTotalTermFreq / N.
 * The length part is precomputed for the 256 possible norms, as Lucene's cache does, and the score
 * is evaluated as `w - w / (1 + tf * normInverse)`, which is equal and cheaper.
 */
import { normToLength } from '../codec/norms/small-float.js';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** Lucene's BM25 idf. */
export function bm25Idf(docFreq: number, docCount: number): number {
  return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

/** Field length of each of the 256 norm bytes. */
const NORM_LENGTHS = Float64Array.from({ length: 256 }, (_, n) => normToLength(n));

/** Recently built tables by avgdl: a snapshot's statistics repeat across its queries. */
const normCaches = new Map<number, Float64Array>();
const MAX_CACHED_TABLES = 64;

/** `1 / (k1 * (1 - b + b * dl / avgdl))` for each of the 256 norm bytes (with Lucene's k1, b). */
export function bm25NormCache(avgdl: number): Float64Array {
  let cache = normCaches.get(avgdl);
  if (cache !== undefined) return cache;
  cache = new Float64Array(256);
  for (let n = 0; n < 256; n++) cache[n] = 1 / (BM25_K1 * (1 - BM25_B + (BM25_B * NORM_LENGTHS[n]) / avgdl));
  if (normCaches.size >= MAX_CACHED_TABLES) normCaches.delete(normCaches.keys().next().value!);
  normCaches.set(avgdl, cache);
  return cache;
}

/** Score of one term in one doc given its weight (boost * idf), frequency and norm inverse. */
export function bm25Score(weight: number, freq: number, normInverse: number): number {
  return weight - weight / (1 + freq * normInverse);
}
