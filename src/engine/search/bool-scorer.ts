/**
 * bool: docs matching every required clause (`must`, scored, and `filter`, unscored), none of the
 * `must_not` clauses, and at least `minimumShouldMatch` of the `should` clauses. The score sums the
 * `must` clauses and the matching `should` clauses, in that order (reproducible sums).
 */
import { leapFrog, minShallowEnd } from './doc-iteration.js';
import { NO_MORE_DOCS } from './scorer.js';
import type { Scorer } from './scorer.js';

export class BoolScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  readonly maxScore: number;
  /** must + filter, cheapest first: the leap-frog order. */
  private readonly required: readonly Scorer[];

  constructor(
    private readonly must: readonly Scorer[],
    filter: readonly Scorer[],
    private readonly should: readonly Scorer[],
    private readonly mustNot: readonly Scorer[],
    private readonly minimumShouldMatch: number,
  ) {
    this.required = [...must, ...filter].sort((a, b) => a.cost - b.cost);
    this.cost = this.required.length > 0 ? this.required[0].cost : should.reduce((c, s) => c + s.cost, 0);
    this.maxScore = must.reduce((m, s) => m + s.maxScore, 0) + should.reduce((m, s) => m + s.maxScore, 0);
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    let d = target;
    while (true) {
      d = this.required.length > 0 ? leapFrog(this.required, d) : this.unionFrom(d);
      if (d === NO_MORE_DOCS || this.accepts(d)) return (this.doc = d);
      d++;
    }
  }

  score(): number {
    let sum = 0;
    for (const s of this.must) sum += s.score();
    for (const s of this.should) if (s.doc === this.doc) sum += s.score();
    return sum;
  }

  advanceShallow(target: number): number {
    return Math.min(minShallowEnd(this.must, target), minShallowEnd(this.should, target));
  }

  maxScoreUpTo(upTo: number): number {
    let sum = 0;
    for (const s of this.must) sum += s.maxScoreUpTo(upTo);
    for (const s of this.should) sum += s.maxScoreUpTo(upTo);
    return sum;
  }

  private unionFrom(target: number): number {
    let min = NO_MORE_DOCS;
    for (const s of this.should) {
      const d = s.doc < target ? s.advance(target) : s.doc;
      if (d < min) min = d;
    }
    return min;
  }

  private accepts(doc: number): boolean {
    for (const n of this.mustNot) {
      if (n.doc < doc) n.advance(doc);
      if (n.doc === doc) return false;
    }
    if (this.minimumShouldMatch === 0) {
      // Optional should clauses still need positioning to contribute their scores.
      for (const s of this.should) if (s.doc < doc) s.advance(doc);
      return true;
    }
    let matched = 0;
    for (const s of this.should) {
      if (s.doc < doc) s.advance(doc);
      if (s.doc === doc) matched++;
    }
    return matched >= this.minimumShouldMatch;
  }
}
