/**
 * One score for every doc of a set: a precomputed set (prefix queries, scored as Elasticsearch
 * does), or every doc of the segment (match_all, which scores 1 times its boost).
 */
import type { DocBits } from './doc-set.js';
import { NO_MORE_DOCS } from './scorer.js';
import type { Scorer } from './scorer.js';

export class ConstantScoreScorer implements Scorer {
  doc = -1;
  readonly cost: number;

  /** @param docs the docs to match, or null for every doc below `maxDoc` */
  constructor(
    private readonly docs: DocBits | null,
    private readonly maxDoc: number,
    readonly maxScore: number,
    cost: number,
  ) {
    this.cost = cost;
  }

  /** Matches every doc of a segment of `maxDoc` docs. */
  static all(maxDoc: number, score: number): ConstantScoreScorer {
    return new ConstantScoreScorer(null, maxDoc, score, maxDoc);
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    const from = Math.max(target, 0);
    if (this.docs === null) return (this.doc = from < this.maxDoc ? from : NO_MORE_DOCS);
    const bits = this.docs.bits;
    for (let d = from; d < this.maxDoc; d++) if (bits[d] === 1) return (this.doc = d);
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
