import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { defaultMergePolicyOptions, planMerges } from '../../../src/engine/commit/merge-policy.js';
import type { MergePolicyOptions, MergeSpec, SegmentStats } from '../../../src/engine/commit/merge-policy.js';

const MiB = 1024 * 1024;

const segmentRow = fc.record({
  maxDoc: fc.integer({ min: 0, max: 1_000_000 }),
  deletedPct: fc.integer({ min: 0, max: 100 }),
  sizeBytes: fc.integer({ min: 0, max: 2 ** 33 }),
});

const optionsArb: fc.Arbitrary<Partial<MergePolicyOptions>> = fc.record(
  {
    segmentsPerTier: fc.integer({ min: 1, max: 12 }),
    maxMergeAtOnce: fc.integer({ min: 2, max: 12 }),
    floorSegmentBytes: fc.integer({ min: 1, max: 4 * MiB }),
    maxMergedSegmentBytes: fc.integer({ min: 1, max: 2 ** 34 }),
    deletesPctAllowed: fc.integer({ min: 0, max: 100 }),
  },
  { requiredKeys: [] },
);

function toStats(rows: readonly { maxDoc: number; deletedPct: number; sizeBytes: number }[]): SegmentStats[] {
  return rows.map((r, i) => ({
    name: `s${i}`,
    maxDoc: r.maxDoc,
    liveDocs: Math.round((r.maxDoc * (100 - r.deletedPct)) / 100),
    sizeBytes: r.sizeBytes,
  }));
}

const liveBytes = (s: SegmentStats): number => (s.maxDoc === 0 ? 0 : (s.sizeBytes * s.liveDocs) / s.maxDoc);
const deletedPct = (s: SegmentStats): number => (100 * (s.maxDoc - s.liveDocs)) / s.maxDoc;
const seg = (name: string, sizeBytes: number, maxDoc = 100, liveDocs = maxDoc): SegmentStats => ({ name, maxDoc, liveDocs, sizeBytes });

/** Replaces each planned merge by one segment holding the merged live docs and bytes. */
function apply(segments: SegmentStats[], merges: readonly MergeSpec[], nextName: () => string): SegmentStats[] {
  let out = segments;
  for (const m of merges) {
    const parts = out.filter((s) => m.segments.includes(s.name));
    out = out.filter((s) => !m.segments.includes(s.name));
    const docs = parts.reduce((a, s) => a + s.liveDocs, 0);
    out.push(seg(nextName(), Math.round(parts.reduce((a, s) => a + liveBytes(s), 0)), docs));
  }
  return out;
}

describe('planMerges', () => {
  it('plans nothing for no segments', () => {
    assert.deepEqual(planMerges([]), []);
  });

  it('keeps its invariants for any segments and options', () => {
    fc.assert(
      fc.property(fc.array(segmentRow, { maxLength: 80, size: 'max' }), optionsArb, (rows, options) => {
        const o = { ...defaultMergePolicyOptions, ...options };
        const stats = toStats(rows);
        const byName = new Map(stats.map((s) => [s.name, s]));
        const merges = planMerges(stats, options);
        const seen = new Set<string>();
        for (const m of merges) {
          assert.ok(m.segments.length >= 1);
          for (const name of m.segments) {
            assert.ok(!seen.has(name), `${name} listed twice`);
            seen.add(name);
            const s = byName.get(name);
            assert.ok(s !== undefined, `unknown segment ${name}`);
            assert.ok(s.liveDocs > 0, 'a segment without live docs is left to the writer to drop');
          }
          const parts = m.segments.map((n) => byName.get(n)!);
          if (parts.length === 1) {
            assert.ok(deletedPct(parts[0]) > o.deletesPctAllowed, 'a single-segment merge only expunges deletes');
          } else {
            assert.ok(parts.reduce((a, s) => a + liveBytes(s), 0) <= o.maxMergedSegmentBytes, 'merge too large');
            const order = parts.map((s) => stats.indexOf(s));
            assert.deepEqual(order, [...order].sort((a, b) => a - b), 'segments listed in input order');
          }
        }
        assert.deepEqual(planMerges(stats, options), merges, 'deterministic');
      }),
      { numRuns: 300 },
    );
  });

  it('rewrites a segment that is half deleted', () => {
    assert.deepEqual(planMerges([seg('a', MiB, 100, 50)]), [{ segments: ['a'] }]);
  });

  it('rewrites a huge segment with too many deletes even beyond the merged-size cap', () => {
    assert.deepEqual(planMerges([seg('big', 20 * 1024 * MiB, 100, 40), seg('ok', 10 * 1024 * MiB, 100, 90)]), [{ segments: ['big'] }]);
  });

  it('leaves a segment whose deletes are within the allowance alone', () => {
    assert.deepEqual(planMerges([seg('a', MiB, 100, 80)]), []);
    assert.deepEqual(planMerges([seg('a', MiB, 100, 80)], { deletesPctAllowed: 10 }), [{ segments: ['a'] }]);
  });

  it('ignores segments without live docs', () => {
    assert.deepEqual(planMerges([seg('gone', MiB, 100, 0), seg('empty', 0, 0, 0)]), []);
  });

  it('merges a tier only once it holds more than segmentsPerTier segments', () => {
    const ten = Array.from({ length: 10 }, (_, i) => seg(`s${i}`, MiB));
    assert.deepEqual(planMerges(ten), []);
    const eleven = [...ten, seg('s10', MiB)];
    const merges = planMerges(eleven);
    assert.equal(merges.length, 1);
    assert.equal(merges[0].segments.length, 10);
  });

  it('merges the smallest segments of a tier, leaving larger tiers alone', () => {
    const small = Array.from({ length: 12 }, (_, i) => seg(`small${i}`, (i + 1) * 100_000));
    const large = Array.from({ length: 9 }, (_, i) => seg(`large${i}`, 500 * MiB));
    const merges = planMerges([...large, ...small]);
    assert.deepEqual(merges, [{ segments: small.slice(0, 10).map((s) => s.name) }]);
  });

  it('counts live bytes rather than file bytes when sizing', () => {
    // 300 MiB files with 5% deleted hold 285 MiB live each: ten of them are 2850 MiB.
    const heavy = Array.from({ length: 11 }, (_, i) => seg(`h${i}`, 300 * MiB, 100, 95));
    const merges = planMerges(heavy, { maxMergedSegmentBytes: 2850 * MiB });
    assert.deepEqual(merges, [{ segments: heavy.slice(0, 10).map((s) => s.name) }]);
    assert.deepEqual(planMerges(heavy, { maxMergedSegmentBytes: 2849 * MiB })[0].segments.length, 9);
  });

  it('never plans a multi-segment merge above maxMergedSegmentBytes', () => {
    const cap = { maxMergedSegmentBytes: 5 * 1024 * MiB };
    const twoGiB = Array.from({ length: 15 }, (_, i) => seg(`b${i}`, 2 * 1024 * MiB));
    const merges = planMerges(twoGiB, cap);
    assert.ok(merges.length > 0);
    for (const m of merges) assert.equal(m.segments.length, 2);
    // Above half the cap a segment has nothing worth merging with.
    const threeGiB = Array.from({ length: 15 }, (_, i) => seg(`c${i}`, 3 * 1024 * MiB));
    assert.deepEqual(planMerges(threeGiB, cap), []);
  });

  it('leaves segments above half the cap out of size-driven merges', () => {
    const options = { segmentsPerTier: 1, maxMergedSegmentBytes: 10 * 1024 * MiB };
    assert.deepEqual(planMerges([seg('six', 6 * 1024 * MiB), seg('three', 3 * 1024 * MiB)], options), []);
    assert.deepEqual(planMerges([seg('four', 4 * 1024 * MiB), seg('three', 3 * 1024 * MiB)], options), [{ segments: ['four', 'three'] }]);
  });

  it('rejects options out of range', () => {
    assert.throws(() => planMerges([], { maxMergeAtOnce: 1 }), RangeError);
    assert.throws(() => planMerges([], { segmentsPerTier: 0 }), RangeError);
    assert.throws(() => planMerges([], { floorSegmentBytes: 0 }), RangeError);
    assert.throws(() => planMerges([], { deletesPctAllowed: 101 }), RangeError);
  });

  it('keeps the segment count logarithmic over 1000 flushes', () => {
    const o = { segmentsPerTier: 10, maxMergeAtOnce: 10, floorSegmentBytes: 1000 };
    let segments: SegmentStats[] = [];
    let next = 0;
    const name = (): string => `f${next++}`;
    let total = 0;
    let merges = 0;
    for (let flush = 0; flush < 1000; flush++) {
      segments.push(seg(name(), 1000, 10));
      total += 1000;
      const plan = planMerges(segments, o);
      merges += plan.length;
      segments = apply(segments, plan, name);
      const bound = o.segmentsPerTier * (Math.log(total / o.floorSegmentBytes) / Math.log(o.maxMergeAtOnce) + 2);
      assert.ok(segments.length <= bound, `${segments.length} segments after ${flush + 1} flushes (bound ${bound})`);
    }
    assert.equal(segments.reduce((a, s) => a + s.sizeBytes, 0), total);
    assert.ok(merges < 150, `${merges} merges: each doc should be rewritten about log(n) times, not n`);
  });

  it('settles every tier at segmentsPerTier for any flush sizes and options', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 2, max: 10 }),
        fc.array(fc.integer({ min: 1, max: 50_000 }), { minLength: 1, maxLength: 400, size: 'max' }),
        (segmentsPerTier, maxMergeAtOnce, flushes) => {
          const o = { segmentsPerTier, maxMergeAtOnce, floorSegmentBytes: 1000 };
          let segments: SegmentStats[] = [];
          let next = 0;
          const name = (): string => `f${next++}`;
          let total = 0;
          for (const bytes of flushes) {
            segments.push(seg(name(), bytes, 10));
            total += bytes;
            // Replan as the merges finish, until the policy is satisfied.
            for (let plan = planMerges(segments, o); plan.length > 0; plan = planMerges(segments, o)) {
              segments = apply(segments, plan, name);
            }
            // Tier t holds floored sizes in [floor * m^t, floor * m^(t+1)); no size exceeds the total.
            const tiers = Math.floor(Math.log(Math.max(total, 1000) / 1000) / Math.log(maxMergeAtOnce) + 1e-9) + 1;
            assert.ok(segments.length <= segmentsPerTier * tiers, `${segments.length} segments > ${segmentsPerTier} x ${tiers} tiers`);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
