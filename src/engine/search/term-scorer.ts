/**
 * Scores one term of one field over a segment with BM25, bounding the scores of block ranges by the
 * postings' block impacts (or block max frequency and min norm).
 */
import type { PostingsIterator } from '../codec/postings/postings-reader.js';
import { bm25Score } from './bm25.js';
import type { Scorer } from './scorer.js';

export class TermScorer implements Scorer {
  readonly maxScore: number;

  /**
   * @param weight boost * idf of the term
   * @param normInverse the BM25 length table of the field (see bm25NormCache)
   */
  constructor(
    /** Read directly by the flattened conjunction (term-conjunction.ts), as are the next three. */
    readonly postings: PostingsIterator,
    readonly norms: Uint8Array,
    readonly weight: number,
    readonly normInverse: Float64Array,
    maxFreq: number,
    minNorm: number,
  ) {
    this.maxScore = bm25Score(weight, maxFreq, normInverse[minNorm]);
  }

  get doc(): number {
    return this.postings.doc;
  }

  get cost(): number {
    return this.postings.cost;
  }

  nextDoc(): number {
    return this.postings.nextDoc();
  }

  advance(target: number): number {
    return this.postings.advance(target);
  }

  score(): number {
    const p = this.postings;
    return bm25Score(this.weight, p.freq(), this.normInverse[this.norms[p.doc]]);
  }

  advanceShallow(target: number): number {
    return this.postings.advanceShallow(target);
  }

  maxScoreUpTo(upTo: number): number {
    // Postings only move forward: past `upTo` already, the term has no doc left in the range. This
    // is what makes a sparse term cheap to bound: its one block spans the whole segment, so its
    // block bound alone would count its best score in every window.
    if (this.postings.doc > upTo) return 0;
    // bm25Score's own arithmetic on the largest freq * normInverse of the range: a doc with that
    // product scores exactly this, and every doc of the range has one at most as large.
    const x = this.postings.maxFreqNormUpTo(upTo, this.normInverse);
    if (x === 0) return 0;
    const w = this.weight;
    return w - w / (1 + x);
  }
}
