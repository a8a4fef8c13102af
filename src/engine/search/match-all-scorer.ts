/** Matches every doc of a segment with a constant score (Elasticsearch's match_all scores 1). */
import { NO_MORE_DOCS } from './scorer.js';
import type { Scorer } from './scorer.js';

export class MatchAllScorer implements Scorer {
  doc = -1;
  readonly maxScore: number;

  constructor(
    private readonly maxDoc: number,
    boost: number,
  ) {
    this.maxScore = boost;
  }

  get cost(): number {
    return this.maxDoc;
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    return (this.doc = target < this.maxDoc ? target : NO_MORE_DOCS);
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
