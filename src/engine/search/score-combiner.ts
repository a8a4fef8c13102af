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

/**
 * dis_max over groups of summed clauses: `groupOf[i]` names the group of clause i; each group's
 * score is the sum of its clauses (in clause order), and the groups combine as dis_max. This is
 * best_fields (max over fields of the field's term sum) flattened to terms, so that MaxScore can
 * prune on every term rather than on whole fields.
 */
export function groupedDisMaxCombiner(groupOf: Int32Array, groupCount: number, tieBreaker: number): ScoreCombiner {
  const sums = new Float64Array(groupCount);
  const max = disMaxCombiner(tieBreaker);
  return {
    combine(scores, count) {
      sums.fill(0);
      for (let i = 0; i < count; i++) sums[groupOf[i]] += scores[i];
      return max.combine(sums, groupCount);
    },
  };
}
