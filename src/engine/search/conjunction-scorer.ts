/**
 * An intersection of clauses (operator "and"): leap-frogs from the rarest clause, and sums the
 * clause scores of each doc that all clauses match.
 */
import { NO_MORE_DOCS } from './scorer.js';
import type { Scorer } from './scorer.js';

export class ConjunctionScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  readonly maxScore: number;
  private readonly clauses: readonly Scorer[];
  /** Clauses in the caller's order, for reproducible score sums. */
  private readonly ordered: readonly Scorer[];

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
    const clauses = this.clauses;
    const lead = clauses[0];
    let doc = lead.advance(target);
    outer: while (doc !== NO_MORE_DOCS) {
      for (let i = 1; i < clauses.length; i++) {
        const c = clauses[i];
        const d = c.doc < doc ? c.advance(doc) : c.doc;
        if (d !== doc) {
          doc = lead.advance(d);
          continue outer;
        }
      }
      break;
    }
    return (this.doc = doc);
  }

  score(): number {
    let sum = 0;
    for (const c of this.ordered) sum += c.score();
    return sum;
  }

  advanceShallow(target: number): number {
    let upTo = NO_MORE_DOCS;
    for (const c of this.clauses) {
      const end = c.advanceShallow(target);
      if (end < upTo) upTo = end;
    }
    return upTo;
  }

  maxScoreUpTo(upTo: number): number {
    let sum = 0;
    for (const c of this.ordered) sum += c.maxScoreUpTo(upTo);
    return sum;
  }
}
