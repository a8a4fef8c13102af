/**
 * A postings block's impacts: its competitive (frequency, norm) pairs, from which a BM25 upper
 * bound of the block follows for any collection statistics (see postings-writer.ts for the format
 * and why). The writer gathers them per block with {@link ImpactCollector}; the reader keeps them
 * in {@link SkipData}'s flat arrays.
 */
import type { ByteWriter } from '../bytes/byte-writer.js';

/** Gathers one block's impacts: the largest frequency seen at each norm, then the competitive ones. */
export class ImpactCollector {
  /** Largest frequency per norm byte in the current block (0: the norm did not occur). */
  private readonly maxFreqByNorm = new Uint32Array(256);
  private minNorm = 256;
  private maxNorm = -1;

  /** Records a doc of the block with frequency `freq` and norm byte `norm`. */
  add(freq: number, norm: number): void {
    const byNorm = this.maxFreqByNorm;
    if (freq > byNorm[norm]) byNorm[norm] = freq;
    if (norm < this.minNorm) this.minNorm = norm;
    if (norm > this.maxNorm) this.maxNorm = norm;
  }

  /**
   * Writes the block's impacts (count, then the pairs by ascending norm and frequency, as deltas)
   * and starts the next block.
   */
  writeTo(out: ByteWriter): void {
    const byNorm = this.maxFreqByNorm;
    // Competitive: a frequency above that of every shorter (smaller) norm. Counted first, as the
    // count leads the pairs.
    let count = 0;
    let best = 0;
    for (let n = this.minNorm; n <= this.maxNorm; n++) {
      if (byNorm[n] > best) {
        best = byNorm[n];
        count++;
      }
    }
    out.writeVarint(count);
    best = 0;
    let prevNorm = 0;
    for (let n = this.minNorm; n <= this.maxNorm; n++) {
      const f = byNorm[n];
      if (f > best) {
        out.writeVarint(f - best);
        out.writeVarint(n - prevNorm);
        best = f;
        prevNorm = n;
      }
      byNorm[n] = 0;
    }
    this.minNorm = 256;
    this.maxNorm = -1;
  }
}
