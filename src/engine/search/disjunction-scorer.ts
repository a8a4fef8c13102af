/**
 * A union of clauses whose matching clauses' scores are combined (sum or dis_max). Used where a
 * disjunction is nested inside another query; at the top level {@link collectMaxScore} replaces
 * it with pruning.
 */
import type { ScoreCombiner } from './score-combiner.js';
import { minShallowEnd } from './doc-iteration.js';
import { NO_MORE_DOCS } from './scorer.js';
import type { Scorer } from './scorer.js';

export class DisjunctionScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  readonly maxScore: number;
  private readonly scores: Float64Array;
  /** Whether the combination is the largest clause score (ScoreCombiner.plainMax). */
  private readonly plainMax: boolean;

  constructor(
    readonly clauses: readonly Scorer[],
    readonly combiner: ScoreCombiner,
  ) {
    this.scores = new Float64Array(clauses.length);
    this.plainMax = combiner.plainMax;
    this.cost = clauses.reduce((c, s) => c + s.cost, 0);
    for (let i = 0; i < clauses.length; i++) this.scores[i] = clauses[i].maxScore;
    this.maxScore = combiner.combine(this.scores, clauses.length);
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    let min = NO_MORE_DOCS;
    for (const c of this.clauses) {
      const d = c.doc < target ? c.advance(target) : c.doc;
      if (d < min) min = d;
    }
    return (this.doc = min);
  }

  score(): number {
    const clauses = this.clauses;
    if (this.plainMax) {
      // The combiner's own arithmetic (see ScoreCombiner.plainMax), without a call per doc.
      let max = 0;
      for (let i = 0; i < clauses.length; i++) {
        const c = clauses[i];
        if (c.doc === this.doc) {
          const s = c.score();
          if (s > max) max = s;
        }
      }
      return max;
    }
    const scores = this.scores;
    for (let i = 0; i < clauses.length; i++) {
      const c = clauses[i];
      scores[i] = c.doc === this.doc ? c.score() : 0;
    }
    return this.combiner.combine(scores, clauses.length);
  }

  advanceShallow(target: number): number {
    return minShallowEnd(this.clauses, target);
  }

  maxScoreUpTo(upTo: number): number {
    if (this.plainMax) {
      let max = 0;
      for (let i = 0; i < this.clauses.length; i++) {
        const s = this.clauses[i].maxScoreUpTo(upTo);
        if (s > max) max = s;
      }
      return max;
    }
    const scores = this.scores;
    for (let i = 0; i < this.clauses.length; i++) scores[i] = this.clauses[i].maxScoreUpTo(upTo);
    return this.combiner.combine(scores, this.clauses.length);
  }
}
