/**
 * Scores a fixed list of docs with fixed scores: a knn query once the searcher has found its
 * nearest neighbours over the whole snapshot (Lucene's DocAndScoreQuery). Iterates the part of the
 * list that falls in one segment.
 */
import { NO_MORE_DOCS } from './scorer.js';
import type { Scorer } from './scorer.js';

export class ScoredDocsScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  readonly maxScore: number;
  private i: number;

  /**
   * @param docs global doc numbers, ascending; `scores` aligned with them
   * @param start first index of this segment's docs in `docs`; `end` one past the last
   * @param docBase the segment's first global doc number
   */
  constructor(
    private readonly docs: Int32Array,
    private readonly scores: Float32Array,
    private readonly start: number,
    private readonly end: number,
    private readonly docBase: number,
  ) {
    this.i = start - 1;
    this.cost = end - start;
    let max = 0;
    for (let j = start; j < end; j++) max = Math.max(max, scores[j]);
    this.maxScore = max;
  }

  nextDoc(): number {
    this.i++;
    return (this.doc = this.i < this.end ? this.docs[this.i] - this.docBase : NO_MORE_DOCS);
  }

  advance(target: number): number {
    while (this.doc < target && this.doc !== NO_MORE_DOCS) this.nextDoc();
    return this.doc;
  }

  score(): number {
    return this.scores[this.i];
  }

  advanceShallow(_target: number): number {
    return NO_MORE_DOCS;
  }

  maxScoreUpTo(_upTo: number): number {
    return this.maxScore;
  }

  /** The scorer of the docs of the segment at `docBase` with `maxDoc` docs; null when it has none. */
  static forSegment(docs: Int32Array, scores: Float32Array, docBase: number, maxDoc: number): ScoredDocsScorer | null {
    const start = lowerBound(docs, docBase);
    const end = lowerBound(docs, docBase + maxDoc);
    return start === end ? null : new ScoredDocsScorer(docs, scores, start, end, docBase);
  }
}

function lowerBound(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
