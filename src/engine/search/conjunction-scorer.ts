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
    this.clauses = [...clauses].sort((a, b) => a.cost - b.cost);
    this.cost = this.clauses[0]?.cost ?? 0;
    this.maxScore = clauses.reduce((s, c) => s + c.maxScore, 0);
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
