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

/** `1 / (k1 * (1 - b + b * dl / avgdl))` for each of the 256 norm bytes. */
export function bm25NormCache(avgdl: number, k1 = BM25_K1, b = BM25_B): Float64Array {
  const cache = new Float64Array(256);
  for (let n = 0; n < 256; n++) cache[n] = 1 / (k1 * (1 - b + (b * normToLength(n)) / avgdl));
  return cache;
}

/** Score of one term in one doc given its weight (boost * idf), frequency and norm inverse. */
export function bm25Score(weight: number, freq: number, normInverse: number): number {
  return weight - weight / (1 + freq * normInverse);
}
