import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { mergeRanges } from '../../../src/engine/suggest/fuzzy-prefix.js';
import { RangeMax, RankedRanges } from '../../../src/engine/suggest/ranked-ranges.js';

describe('RankedRanges', () => {
  it('yields every index of the ranges in decreasing count, ties by index, as sorting would', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 20 }), { minLength: 1, maxLength: 300 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }),
        (values, rawRanges) => {
          const counts = Uint32Array.from(values);
          const n = counts.length;
          const ranges = mergeRanges(rawRanges.map(([a, b]) => [Math.min(a % (n + 1), b % (n + 1)), Math.max(a % (n + 1), b % (n + 1))]));
          const ranked = new RankedRanges(new RangeMax(counts), counts, ranges);
          const got: number[] = [];
          let bound = Infinity;
          for (let i = ranked.next(); i >= 0; i = ranked.next()) {
            got.push(i);
            assert.ok(counts[i] <= bound, 'counts never increase');
            bound = counts[i];
          }
          assert.equal(ranked.peekCount(), -1);
          const expected = ranges.flatMap(([lo, hi]) => Array.from({ length: hi - lo }, (_, k) => lo + k)).sort((a, b) => counts[b] - counts[a] || a - b);
          assert.deepEqual(got, expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('mergeRanges', () => {
  it('joins overlapping and nested ranges and keeps disjoint ones apart', () => {
    assert.deepEqual(mergeRanges([[5, 9], [0, 2], [6, 7], [1, 3], [9, 10]]), [[0, 3], [5, 10]]);
    assert.deepEqual(mergeRanges([]), []);
  });
});
