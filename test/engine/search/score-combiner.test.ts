/**
 * A combiner that says it is a plain max (ScoreCombiner.plainMax) lets a disjunction take the max of
 * its clause scores itself: that must be exactly what its combine gives, and no other combiner may
 * say so.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { disMaxCombiner, groupedDisMaxCombiner, groupedSumOfDisMaxCombiner, sumCombiner } from '../../../src/engine/search/score-combiner.js';

const scores = fc.array(fc.oneof(fc.constant(0), fc.double({ min: 0, max: 50, noNaN: true })), { minLength: 1, maxLength: 6 });

function max(values: readonly number[]): number {
  let m = 0;
  for (const v of values) if (v > m) m = v;
  return m;
}

describe('ScoreCombiner.plainMax', () => {
  it('is set for dis_max without tie breaker over single clauses, and then combine is the max', () => {
    fc.assert(
      fc.property(scores, (s) => {
        const a = Float64Array.from(s);
        const singletons = groupedDisMaxCombiner(Int32Array.from(s, (_, i) => i), s.length, 0);
        for (const c of [disMaxCombiner(0), singletons]) {
          assert.equal(c.plainMax, true);
          assert.equal(c.combine(a, a.length), max(s));
        }
      }),
    );
  });

  it('is not set where combine is not the max', () => {
    assert.equal(sumCombiner.plainMax, false);
    assert.equal(disMaxCombiner(0.3).plainMax, false);
    assert.equal(groupedDisMaxCombiner(Int32Array.from([0, 1, 2]), 3, 0.1).plainMax, false);
    // Two clauses in one group: that group scores their sum.
    const grouped = groupedDisMaxCombiner(Int32Array.from([0, 0, 1]), 2, 0);
    assert.equal(grouped.plainMax, false);
    assert.equal(grouped.combine(Float64Array.from([1, 2, 2.5]), 3), 3);
    assert.equal(groupedSumOfDisMaxCombiner(Int32Array.from([0, 1]), Float64Array.from([0, 0])).plainMax, false);
  });
});

describe('ScoreCombiner.exceeds', () => {
  it('is combine > threshold for every combiner, at the threshold itself too', () => {
    fc.assert(
      fc.property(scores, fc.double({ min: 0, max: 200, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (values, threshold, tie) => {
        const n = values.length;
        // Two groups: the first half of the clauses and the rest (adjacent, as the combiners require).
        const groupOf = Int32Array.from(values, (_, i) => (i < n / 2 ? 0 : 1));
        const combiners = [sumCombiner, disMaxCombiner(tie), disMaxCombiner(0), groupedDisMaxCombiner(groupOf, 2, tie), groupedSumOfDisMaxCombiner(groupOf, Float64Array.of(tie, 0))];
        for (const c of combiners) {
          const combined = c.combine(values, n);
          assert.equal(c.exceeds(values, n, threshold), combined > threshold);
          assert.equal(c.exceeds(values, n, combined), false, 'a doc scoring the threshold does not exceed it');
          assert.equal(c.combine(values, n), combined);
        }
      }),
    );
  });
});
