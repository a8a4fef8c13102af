/** Iterates a precomputed set of docs with one score for all (prefix queries, as Elasticsearch scores them). */
import type { DocBits } from './doc-set.js';
import { NO_MORE_DOCS } from './scorer.js';
import type { Scorer } from './scorer.js';

export class ConstantScoreScorer implements Scorer {
  doc = -1;
  readonly cost: number;

  constructor(
    private readonly docs: DocBits,
    readonly maxScore: number,
    cost: number,
  ) {
    this.cost = cost;
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    const bits = this.docs.bits;
    for (let d = Math.max(target, 0); d < bits.length; d++) if (bits[d] === 1) return (this.doc = d);
    return (this.doc = NO_MORE_DOCS);
  }

  score(): number {
    return this.maxScore;
  }

  advanceShallow(_target: number): number {
    return NO_MORE_DOCS;
  }

  maxScoreUpTo(_upTo: number): number {
    return this.maxScore;
  }
}
