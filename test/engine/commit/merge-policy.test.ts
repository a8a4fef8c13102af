import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { defaultMergePolicyOptions, planMerges } from '../../../src/engine/commit/merge-policy.js';
import type { SegmentStats } from '../../../src/engine/commit/merge-policy.js';

const segment = fc.record({
  maxDoc: fc.integer({ min: 1, max: 1_000_000 }),
  deletedPct: fc.integer({ min: 0, max: 100 }),
  sizeBytes: fc.integer({ min: 1, max: 1 << 30 }),
});

function toStats(rows: { maxDoc: number; deletedPct: number; sizeBytes: number }[]): SegmentStats[] {
  return rows.map((r, i) => ({ name: `s${i}`, maxDoc: r.maxDoc, liveDocs: Math.round((r.maxDoc * (100 - r.deletedPct)) / 100), sizeBytes: r.sizeBytes }));
}

describe('planMerges', () => {
  it('plans nothing for no segments', () => {
    assert.deepEqual(planMerges([]), []);
  });

  it('never lists a segment twice, only known segments, and merges >= 2 unless expunging deletes', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 60 }), (rows) => {
        const stats = toStats(rows);
        const merges = planMerges(stats);
        const seen = new Set<string>();
        for (const m of merges) {
          for (const name of m.segments) {
            assert.ok(!seen.has(name));
            seen.add(name);
            assert.ok(stats.some((s) => s.name === name));
          }
          if (m.segments.length === 1) {
            const s = stats.find((x) => x.name === m.segments[0])!;
            assert.ok((100 * (s.maxDoc - s.liveDocs)) / s.maxDoc > defaultMergePolicyOptions.deletesPctAllowed);
          }
        }
        assert.deepEqual(planMerges(stats), merges, 'deterministic');
      }),
    );
  });

  it('rewrites a segment that is half deleted', () => {
    assert.deepEqual(planMerges([{ name: 'a', maxDoc: 100, liveDocs: 50, sizeBytes: 1 << 20 }]), [{ segments: ['a'] }]);
  });

  it('keeps the segment count logarithmic over many flushes', () => {
    const o = { segmentsPerTier: 10, maxMergeAtOnce: 10, floorSegmentBytes: 1000 };
    let segments: SegmentStats[] = [];
    let next = 0;
    let total = 0;
    for (let flush = 0; flush < 1000; flush++) {
      segments.push({ name: `f${next++}`, maxDoc: 10, liveDocs: 10, sizeBytes: 1000 });
      total += 1000;
      for (const m of planMerges(segments, o)) {
        const parts = segments.filter((s) => m.segments.includes(s.name));
        segments = segments.filter((s) => !m.segments.includes(s.name));
        segments.push({ name: `f${next++}`, maxDoc: 10, liveDocs: 10, sizeBytes: parts.reduce((a, s) => a + s.sizeBytes, 0) });
      }
      const bound = o.segmentsPerTier * (Math.log(total / o.floorSegmentBytes) / Math.log(o.maxMergeAtOnce) + 2);
      assert.ok(segments.length <= bound, `${segments.length} segments after ${flush + 1} flushes (bound ${bound})`);
    }
    assert.equal(segments.reduce((a, s) => a + s.sizeBytes, 0), total);
  });
});
