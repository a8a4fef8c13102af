/**
 * How a compound query turns its clauses' scores into one: a sum (bool should, most_fields) or a
 * dis_max (best_fields: the best clause plus tie_breaker times the others). Both are monotone in
 * every clause score, which is what makes MaxScore-style pruning with clause bounds sound.
 */
export interface ScoreCombiner {
  /** Combines `count` scores held in `scores` (scores of clauses that did not match are 0). */
  combine(scores: ArrayLike<number>, count: number): number;
}

/** Sum of the clause scores, added in clause order so results are reproducible. */
export const sumCombiner: ScoreCombiner = {
  combine(scores, count) {
    let sum = 0;
    for (let i = 0; i < count; i++) sum += scores[i];
    return sum;
  },
};

/** dis_max: max + tieBreaker * (sum - max). */
export function disMaxCombiner(tieBreaker: number): ScoreCombiner {
  return {
    combine(scores, count) {
      let sum = 0;
      let max = 0;
      for (let i = 0; i < count; i++) {
        const s = scores[i];
        sum += s;
        if (s > max) max = s;
      }
      return tieBreaker === 0 ? max : max + tieBreaker * (sum - max);
    },
  };
}
