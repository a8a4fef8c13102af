/** Iteration helpers shared by the scorers that intersect or bound several clauses. */
import { NO_MORE_DOCS } from './scorer.js';
import type { Scorer } from './scorer.js';

/** A forward-only iterator over doc ids (scorers and postings both are). */
export interface DocIterator {
  readonly doc: number;
  readonly cost: number;
  advance(target: number): number;
}

/**
 * Leap-frog intersection: the first doc >= target that every iterator contains. `iterators[0]`
 * leads, so pass them cheapest first; iterators already at or past a doc are not moved back.
 */
export function leapFrog(iterators: readonly DocIterator[], target: number): number {
  const lead = iterators[0];
  let doc = lead.doc < target ? lead.advance(target) : lead.doc;
  outer: while (doc !== NO_MORE_DOCS) {
    for (let i = 1; i < iterators.length; i++) {
      const it = iterators[i];
      const d = it.doc < doc ? it.advance(doc) : it.doc;
      if (d !== doc) {
        doc = lead.advance(d);
        continue outer;
      }
    }
    return doc;
  }
  return NO_MORE_DOCS;
}

/** The nearest block boundary over the scorers' shallow advance to `target`. */
export function minShallowEnd(scorers: readonly Scorer[], target: number): number {
  let upTo = NO_MORE_DOCS;
  for (const s of scorers) {
    const end = s.advanceShallow(target);
    if (end < upTo) upTo = end;
  }
  return upTo;
}
