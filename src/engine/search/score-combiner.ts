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
  /**
   * The combination's arithmetic, for loops that combine flat arrays of term scores themselves
   * (term-disjunction.ts) with exactly these additions and comparisons; undefined for a combiner
   * they do not know.
   */
  readonly arithmetic?: CombinerArithmetic;
}

/**
 * What a combiner computes, as data: clause i is in group `groupOf[i]` (each clause its own group
 * when null; a group's clauses adjacent) and
 * - `sum`: the clause scores added in clause order from 0;
 * - `sum-of-max`: each group's dis_max (its max plus `tieBreakers[g]` times the rest, over its sum
 *   and max from 0 in clause order), added in group order from 0;
 * - `max-of-sum`: each group's sum from 0 in clause order, then the dis_max of the group sums with
 *   `tieBreaker`.
 */
export interface CombinerArithmetic {
  readonly kind: 'sum' | 'sum-of-max' | 'max-of-sum';
  readonly groupOf: Int32Array | null;
  /** Per group, for `sum-of-max`. */
  readonly tieBreakers: Float64Array | null;
  /** For `max-of-sum`. */
  readonly tieBreaker: number;
}

/** Sum of the clause scores, added in clause order so results are reproducible. */
class SumCombiner implements ScoreCombiner, CombinerArithmetic {
  readonly plainMax = false;
  readonly kind = 'sum';
  readonly groupOf = null;
  readonly tieBreakers = null;
  readonly tieBreaker = 0;

  get arithmetic(): CombinerArithmetic {
    return this;
  }

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
class DisMaxCombiner implements ScoreCombiner, CombinerArithmetic {
  readonly plainMax: boolean;
  readonly kind = 'max-of-sum';
  readonly groupOf = null;
  readonly tieBreakers = null;

  constructor(readonly tieBreaker: number) {
    this.plainMax = tieBreaker === 0;
  }

  get arithmetic(): CombinerArithmetic {
    return this;
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

class GroupedDisMaxCombiner implements ScoreCombiner, CombinerArithmetic {
  readonly plainMax: boolean;
  readonly kind = 'max-of-sum';
  readonly tieBreakers = null;

  get arithmetic(): CombinerArithmetic {
    return this;
  }

  constructor(
    readonly groupOf: Int32Array,
    readonly tieBreaker: number,
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

class GroupedSumOfDisMaxCombiner implements ScoreCombiner, CombinerArithmetic {
  readonly plainMax = false;
  readonly kind = 'sum-of-max';
  readonly tieBreaker = 0;

  constructor(
    readonly groupOf: Int32Array,
    readonly tieBreakers: Float64Array,
  ) {}

  get arithmetic(): CombinerArithmetic {
    return this;
  }

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
