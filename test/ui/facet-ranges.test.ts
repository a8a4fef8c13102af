import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { describeRange, rangeBuckets } from '../../src/ui/facet-ranges.js';
import { remember, suggest } from '../../src/ui/recent-queries.js';

function bucketOf(buckets: ReturnType<typeof rangeBuckets>, v: number): number[] {
  return buckets.flatMap((b, i) => ((b.from === undefined || v >= b.from) && (b.to === undefined || v < b.to) ? [i] : []));
}

describe('rangeBuckets', () => {
  it('cuts years into round decades or double decades', () => {
    assert.deepEqual(rangeBuckets(1942, 2019, 'int'), [{ to: 1960 }, { from: 1960, to: 1980 }, { from: 1980, to: 2000 }, { from: 2000 }]);
    assert.deepEqual(rangeBuckets(1972, 2016, 'int'), [{ to: 1980 }, { from: 1980, to: 1990 }, { from: 1990, to: 2000 }, { from: 2000, to: 2010 }, { from: 2010 }]);
  });

  it('cuts dates on calendar years, months or days', () => {
    const label = (a: string, b: string): string[] => rangeBuckets(Date.parse(a), Date.parse(b), 'date').map((r) => describeRange(r, 'date'));
    assert.deepEqual(label('2021-03-04', '2024-12-24'), ['< 2022', '2022', '2023', '≥ 2024']);
    assert.deepEqual(label('1990-01-01', '2024-12-24'), ['< 2000', '2000 – 2009', '2010 – 2019', '≥ 2020']);
    assert.deepEqual(label('2023-03-15', '2023-07-01'), ['< 2023-04', '2023-04', '2023-05', '2023-06', '≥ 2023-07']);
    assert.deepEqual(label('2023-06-01', '2023-06-20').slice(1, 2), ['2023-06-02 – 2023-06-06']);
  });

  it('puts every value between min and max in exactly one of at most 7 buckets', () => {
    fc.assert(fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom('int', 'double', 'date'), (lo, span, type) => {
      // Dates: epoch milliseconds from 1938 to 2001, spans up to ~30 years.
      const scale = type === 'date' ? 1e6 : 1;
      const min = type === 'double' ? lo : Math.round(lo * scale);
      const max = type === 'double' ? lo + span : Math.round((lo + span) * scale);
      const buckets = rangeBuckets(min, max, type);
      assert.ok(buckets.length >= 1 && buckets.length <= 7, JSON.stringify(buckets));
      for (const v of [min, max, (min + max) / 2]) assert.equal(bucketOf(buckets, v).length, 1, `${v} in ${JSON.stringify(buckets)}`);
    }));
  });
});

describe('describeRange', () => {
  it('reads whole-number ranges inclusively and dates as days', () => {
    assert.equal(describeRange({ from: 1990, to: 2000 }, 'int'), '1990 – 1999');
    assert.equal(describeRange({ to: 1960 }, 'int'), '< 1960');
    assert.equal(describeRange({ from: 8.5 }, 'double'), '≥ 8.5');
    assert.equal(describeRange({ from: Date.UTC(2001, 0, 1), to: Date.UTC(2001, 0, 8) }, 'date'), '2001-01-01 – 2001-01-07');
  });
});

describe('suggest / remember', () => {
  it('suggests prefix matches before inner matches, not the typed text itself', () => {
    const recent = ['the matrix', 'matrix reloaded', 'heat', 'matrix'];
    assert.deepEqual(suggest(recent, 'matrix'), ['matrix reloaded', 'the matrix']);
    assert.deepEqual(suggest(recent, ''), recent);
  });

  it('keeps the newest first, once, at most 20', () => {
    let recent: string[] = [];
    for (let i = 0; i < 25; i++) recent = remember(recent, `q${i % 22}`);
    assert.equal(recent.length, 20);
    assert.equal(recent[0], 'q2');
    assert.equal(new Set(recent).size, 20);
    assert.deepEqual(remember(['a', 'b'], ' b '), ['b', 'a']);
  });
});
