/**
 * The scorer contract: a doc id iterator that can score its current doc and bound the scores of
 * doc ranges it has not decoded yet. The bounds drive dynamic pruning (block-max WAND / MaxScore):
 * a range whose bound cannot beat the current top-k threshold is skipped without scoring.
 */
export { NO_MORE_DOCS } from '../codec/postings/postings-format.js';

export interface Scorer {
  /** Current doc: -1 before the first move, NO_MORE_DOCS when exhausted. */
  readonly doc: number;
  nextDoc(): number;
  /** Moves to the first doc >= target. */
  advance(target: number): number;
  /** Score of the current doc. */
  score(): number;
  /** Estimated number of matching docs. */
  readonly cost: number;
  /** An upper bound of score() over every doc. */
  readonly maxScore: number;
  /**
   * Prepares bounds for docs >= target without moving the iterator; returns the last doc of the
   * range over which {@link Scorer.maxScoreUpTo} is cheapest to compute (a block boundary).
   */
  advanceShallow(target: number): number;
  /** An upper bound of score() over docs from the last advanceShallow target up to `upTo`. */
  maxScoreUpTo(upTo: number): number;
}

/** Guards pruning against rounding: bounds are inflated by this relative slack. */
export const BOUND_SLACK = 1 + 1e-9;
