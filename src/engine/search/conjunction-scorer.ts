/**
 * An intersection of clauses (operator "and"): leap-frogs from the rarest clause, and sums the
 * clause scores of each doc that all clauses match.
 */
import { leapFrog, minShallowEnd } from './doc-iteration.js';
import type { Scorer } from './scorer.js';

export class ConjunctionScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  readonly maxScore: number;
  /** Clauses by ascending cost: the first leads the leap-frog. */
  readonly clauses: readonly Scorer[];
  /** Clauses in the caller's order, for reproducible score sums. */
  readonly ordered: readonly Scorer[];

  constructor(clauses: readonly Scorer[]) {
    this.ordered = clauses;
    // A stable insertion sort by cost (Array.prototype.sort's order): a handful of clauses, built
    // per segment and query, where the built-in sort's set-up is most of the cost and garbage.
    const byCost = clauses.slice();
    for (let i = 1; i < byCost.length; i++) {
      const c = byCost[i];
      let j = i - 1;
      for (; j >= 0 && byCost[j].cost > c.cost; j--) byCost[j + 1] = byCost[j];
      byCost[j + 1] = c;
    }
    this.clauses = byCost;
    this.cost = byCost[0]?.cost ?? 0;
    let maxScore = 0;
    for (const c of clauses) maxScore += c.maxScore;
    this.maxScore = maxScore;
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    return (this.doc = leapFrog(this.clauses, target));
  }

  score(): number {
    let sum = 0;
    for (const c of this.ordered) sum += c.score();
    return sum;
  }

  advanceShallow(target: number): number {
    return minShallowEnd(this.clauses, target);
  }

  maxScoreUpTo(upTo: number): number {
    let sum = 0;
    for (const c of this.ordered) sum += c.maxScoreUpTo(upTo);
    return sum;
  }
}
