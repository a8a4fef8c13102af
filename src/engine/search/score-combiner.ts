/**
 * How a compound query turns its clauses' scores into one: a sum (bool should, most_fields) or a
 * dis_max (best_fields: the best clause plus tie_breaker times the others). Both are monotone in
 * every clause score, which is what makes MaxScore-style pruning with clause bounds sound.
 */
export interface ScoreCombiner {
  /** Combines `count` scores held in `scores` (scores of clauses that did not match are 0). */
  combine(scores: ArrayLike<number>, count: number): number;
  /**
   * Whether `combine(scores, count) > threshold`. The pruning loops ask this for every candidate;
   * a boolean answer spares them the heap number that a double returned from a call that is not
   * inlined costs (the combiners are classes, so each one's own combine inlines here).
   */
  exceeds(scores: ArrayLike<number>, count: number, threshold: number): boolean;
  /**
   * True when `combine` is the largest score (non-matching clauses scoring 0) with exactly that
   * arithmetic: a dis_max without tie breaker over single clauses. A nested scorer then takes the
   * max itself rather than calling through the interface for every doc.
   */
  readonly plainMax: boolean;
}

/** Sum of the clause scores, added in clause order so results are reproducible. */
class SumCombiner implements ScoreCombiner {
  readonly plainMax = false;

  combine(scores: ArrayLike<number>, count: number): number {
    let sum = 0;
    for (let i = 0; i < count; i++) sum += scores[i];
    return sum;
  }

  exceeds(scores: ArrayLike<number>, count: number, threshold: number): boolean {
    return this.combine(scores, count) > threshold;
  }
}

/** Sum of the clause scores, added in clause order so results are reproducible. */
export const sumCombiner: ScoreCombiner = new SumCombiner();

/** dis_max: max + tieBreaker * (sum - max). */
class DisMaxCombiner implements ScoreCombiner {
  readonly plainMax: boolean;

  constructor(private readonly tieBreaker: number) {
    this.plainMax = tieBreaker === 0;
  }

  combine(scores: ArrayLike<number>, count: number): number {
    let sum = 0;
    let max = 0;
    for (let i = 0; i < count; i++) {
      const s = scores[i];
      sum += s;
      if (s > max) max = s;
    }
    return this.tieBreaker === 0 ? max : max + this.tieBreaker * (sum - max);
  }

  exceeds(scores: ArrayLike<number>, count: number, threshold: number): boolean {
    return this.combine(scores, count) > threshold;
  }
}

/** dis_max: max + tieBreaker * (sum - max). */
export function disMaxCombiner(tieBreaker: number): ScoreCombiner {
  return new DisMaxCombiner(tieBreaker);
}

/**
 * dis_max over groups of summed clauses: `groupOf[i]` names the group of clause i; each group's
 * score is the sum of its clauses (in clause order), and the groups combine as dis_max. This is
 * best_fields (max over fields of the field's term sum) flattened to terms, so that MaxScore can
 * prune on every term rather than on whole fields. A group's clauses must be adjacent (groupOf
 * non-decreasing), which lets one pass compute it: MaxScore combines once per probed clause.
 */
export function groupedDisMaxCombiner(groupOf: Int32Array, groupCount: number, tieBreaker: number): ScoreCombiner {
  checkAdjacent(groupOf, groupCount);
  return new GroupedDisMaxCombiner(groupOf, tieBreaker);
}

class GroupedDisMaxCombiner implements ScoreCombiner {
  readonly plainMax: boolean;

  constructor(
    private readonly groupOf: Int32Array,
    private readonly tieBreaker: number,
  ) {
    // One clause per group: each group's sum is its one score (0 + s = s), so the combination is the max.
    this.plainMax = tieBreaker === 0 && groupOf.every((g, i) => i === 0 || g !== groupOf[i - 1]);
  }

  combine(scores: ArrayLike<number>, count: number): number {
    // disMaxCombiner over the group sums; a group without clauses adds 0 and changes neither.
    const groupOf = this.groupOf;
    let sum = 0;
    let max = 0;
    let i = 0;
    while (i < count) {
      const g = groupOf[i];
      let groupSum = 0;
      for (; i < count && groupOf[i] === g; i++) groupSum += scores[i];
      sum += groupSum;
      if (groupSum > max) max = groupSum;
    }
    return this.tieBreaker === 0 ? max : max + this.tieBreaker * (sum - max);
  }

  exceeds(scores: ArrayLike<number>, count: number, threshold: number): boolean {
    return this.combine(scores, count) > threshold;
  }
}

/**
 * Sum over groups of each group's dis_max: `groupOf[i]` names the group of clause i; group g scores
 * its best clause plus `tieBreakers[g]` times the others, and the groups add up in group order. This
 * is a cross_fields query (a sum over words of each word's best field) flattened to terms, so that
 * MaxScore prunes on every (field, word) term. The arithmetic is the nested scorers' own: each
 * group's sum and max in clause order from 0, then the groups' scores added from 0. A group's
 * clauses must be adjacent, as for {@link groupedDisMaxCombiner}.
 */
export function groupedSumOfDisMaxCombiner(groupOf: Int32Array, tieBreakers: Float64Array): ScoreCombiner {
  checkAdjacent(groupOf, tieBreakers.length);
  return new GroupedSumOfDisMaxCombiner(groupOf, tieBreakers);
}

class GroupedSumOfDisMaxCombiner implements ScoreCombiner {
  readonly plainMax = false;

  constructor(
    private readonly groupOf: Int32Array,
    private readonly tieBreakers: Float64Array,
  ) {}

  combine(scores: ArrayLike<number>, count: number): number {
    const groupOf = this.groupOf;
    let total = 0;
    let i = 0;
    while (i < count) {
      const g = groupOf[i];
      let sum = 0;
      let max = 0;
      for (; i < count && groupOf[i] === g; i++) {
        const s = scores[i];
        sum += s;
        if (s > max) max = s;
      }
      const tie = this.tieBreakers[g];
      total += tie === 0 ? max : max + tie * (sum - max);
    }
    return total;
  }

  exceeds(scores: ArrayLike<number>, count: number, threshold: number): boolean {
    return this.combine(scores, count) > threshold;
  }
}

function checkAdjacent(groupOf: Int32Array, groupCount: number): void {
  for (let i = 0; i < groupOf.length; i++) {
    if (groupOf[i] >= groupCount || (i > 0 && groupOf[i] < groupOf[i - 1])) throw new Error('grouped combiner: clauses must be ordered by group');
  }
}
