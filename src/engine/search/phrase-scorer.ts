/**
 * Phrase queries over positions. A doc matches when its terms occur at the query's relative
 * positions, within `slop` position moves. The phrase frequency is the number of exact occurrences
 * (slop 0), or the sum of 1 / (1 + match length) over the windows a sweep finds (Lucene's sloppy
 * frequency); it is scored with BM25 using the sum of the terms' idf as the weight.
 */
import type { PostingsIterator } from '../codec/postings/postings-reader.js';
import { bm25Score } from './bm25.js';
import { leapFrog } from './doc-iteration.js';
import { NO_MORE_DOCS } from './scorer.js';
import type { Scorer } from './scorer.js';

export class PhraseScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  readonly maxScore: number;
  private freq = 0;
  /** The postings cheapest first: the intersection order. */
  private readonly byCost: readonly PostingsIterator[];
  private readonly positions: Int32Array[];
  private readonly counts: Int32Array;

  /**
   * @param postings one iterator per phrase term, in phrase order
   * @param offsets each term's position relative to the first
   */
  constructor(
    private readonly postings: readonly PostingsIterator[],
    private readonly offsets: readonly number[],
    private readonly slop: number,
    private readonly norms: Uint8Array,
    private readonly weight: number,
    private readonly normInverse: Float64Array,
    maxFreq: number,
    minNorm: number,
  ) {
    this.byCost = [...postings].sort((a, b) => a.cost - b.cost);
    this.cost = this.byCost[0].cost;
    this.maxScore = bm25Score(weight, maxFreq, normInverse[minNorm]);
    this.positions = postings.map(() => new Int32Array(16));
    this.counts = new Int32Array(postings.length);
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    let doc = target;
    while ((doc = leapFrog(this.byCost, doc)) !== NO_MORE_DOCS) {
      this.freq = this.phraseFreq();
      if (this.freq > 0) break;
      doc++;
    }
    return (this.doc = doc);
  }

  score(): number {
    return bm25Score(this.weight, this.freq, this.normInverse[this.norms[this.doc]]);
  }

  advanceShallow(_target: number): number {
    return NO_MORE_DOCS;
  }

  maxScoreUpTo(_upTo: number): number {
    return this.maxScore;
  }

  private phraseFreq(): number {
    const n = this.postings.length;
    for (let i = 0; i < n; i++) {
      const p = this.postings[i];
      const f = p.freq();
      if (this.positions[i].length < f) this.positions[i] = new Int32Array(f * 2);
      this.counts[i] = p.readPositions(this.positions[i]);
    }
    return phraseFrequency(this.positions, this.counts, this.offsets, this.slop);
  }
}

/**
 * The phrase frequency of one doc given each term's sorted positions (`positions[i]` holds
 * `counts[i]` of them). Exported for the model tests, which must agree with it by definition.
 */
export function phraseFrequency(positions: readonly ArrayLike<number>[], counts: ArrayLike<number>, offsets: readonly number[], slop: number): number {
  const n = offsets.length;
  if (slop === 0) {
    let freq = 0;
    for (let k = 0; k < counts[0]; k++) {
      const start = positions[0][k] - offsets[0];
      let all = true;
      for (let i = 1; i < n && all; i++) all = contains(positions[i], counts[i], start + offsets[i]);
      if (all) freq++;
    }
    return freq;
  }
  // Sweep: always advance the term whose (position - offset) is smallest.
  const idx = new Int32Array(n);
  let freq = 0;
  while (true) {
    let min = Infinity;
    let max = -Infinity;
    let minTerm = 0;
    for (let i = 0; i < n; i++) {
      const v = positions[i][idx[i]] - offsets[i];
      if (v < min) {
        min = v;
        minTerm = i;
      }
      if (v > max) max = v;
    }
    const matchLength = max - min;
    if (matchLength <= slop) freq += 1 / (1 + matchLength);
    if (++idx[minTerm] >= counts[minTerm]) return freq;
  }
}

function contains(sorted: ArrayLike<number>, count: number, value: number): boolean {
  let lo = 0;
  let hi = count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid];
    if (v === value) return true;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
