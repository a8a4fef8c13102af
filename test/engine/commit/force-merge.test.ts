import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planForcedMerge } from '../../../src/engine/commit/merge-policy.js';
import type { SegmentStats } from '../../../src/engine/commit/merge-policy.js';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { Index } from '../../../src/engine/search-index.js';
import { LocalDirectory } from '../../../src/storage/local-directory.js';
import { temporaryDirectories } from '../../helpers/temp-dirs.js';

const seg = (name: string, sizeBytes: number, maxDoc = 10, liveDocs = maxDoc): SegmentStats => ({ name, maxDoc, liveDocs, sizeBytes });

describe('planForcedMerge', () => {
  it('merges the smallest segments into one so that exactly maxSegments remain', () => {
    const segments = [seg('a', 500), seg('b', 100), seg('c', 300), seg('d', 200)];
    assert.deepEqual(planForcedMerge(segments, 2), { segments: ['b', 'c', 'd'] });
    assert.deepEqual(planForcedMerge(segments, 1), { segments: ['a', 'b', 'c', 'd'] });
    assert.deepEqual(planForcedMerge(segments, 3), { segments: ['b', 'd'] });
  });

  it('rewrites a segment with deleted docs alone once there are few enough, and is done after', () => {
    assert.deepEqual(planForcedMerge([seg('a', 100), seg('b', 100, 10, 7)], 2), { segments: ['b'] });
    assert.equal(planForcedMerge([seg('a', 100), seg('b', 100)], 2), null);
    assert.equal(planForcedMerge([], 1), null);
  });

  it('does not count segments without live docs (the next commit drops them)', () => {
    assert.equal(planForcedMerge([seg('a', 100), seg('gone', 100, 10, 0)], 1), null);
  });

  it('refuses a maxSegments below 1', () => {
    assert.throws(() => planForcedMerge([], 0), RangeError);
    assert.throws(() => planForcedMerge([], 1.5), RangeError);
  });
});

const mapping = { fields: { title: { type: 'text' }, year: { type: 'int', filter: true }, genre: { type: 'text', filter: true } } };
const tempDir = temporaryDirectories('yarrow-force-merge-');
async function openIndex(searchable = true): Promise<{ index: Index; path: string }> {
  const path = await tempDir();
  const index = await Index.open(await LocalDirectory.open(path), { name: 'm', mapping, refreshIntervalMs: 0, searchable, writer: { merges: false } });
  return { index, path };
}
const docs = (from: number, n: number): object[] => Array.from({ length: n }, (_, i) => ({ _id: `d${from + i}`, title: `doc ${from + i}`, year: 2000 + ((from + i) % 5), genre: (from + i) % 2 === 0 ? 'even' : 'odd' }));

describe('Index.forceMerge', () => {
  it('merges down to the asked number of segments, expunges deletes, and keeps every live doc', async () => {
    const { index, path } = await openIndex();
    for (let i = 0; i < 5; i++) {
      await index.upsert(docs(i * 10, 10));
      await index.refresh();
    }
    await index.delete(['d3', 'd44']);
    assert.equal(index.stats().segments, 5);
    await index.forceMerge(2);
    assert.equal(index.stats().segments, 2);
    await index.forceMerge(1);
    await index.commit();
    assert.equal(index.stats().segments, 1);
    assert.equal(index.stats().docs, 48);
    await index.close();
    const reopened = await Index.open(await LocalDirectory.open(path), { refreshIntervalMs: 0 });
    const s = reopened.stats();
    assert.deepEqual([s.segments, s.docs], [1, 48]);
    assert.equal(reopened.search({ query: { match: { title: 'd3' } } }).total, 0);
    assert.equal(reopened.search({ size: 100 }).hits.length, 48);
    await reopened.close();
  });

  it('is refused on an index opened read-only', async () => {
    const { index, path } = await openIndex();
    await index.upsert(docs(0, 3));
    await index.close();
    const ro = await Index.open(await LocalDirectory.open(path), { readOnly: true });
    await assert.rejects(ro.forceMerge(1), (e: unknown) => e instanceof YarrowError && e.code === ErrorCode.indexClosed);
  });
});

describe('Index.deleteByFilter', () => {
  for (const searchable of [true, false]) {
    it(`deletes exactly the live docs the filter accepts, buffered ones included (${searchable ? 'searchable' : 'write-only'} index)`, async () => {
      const { index, path } = await openIndex(searchable);
      await index.upsert(docs(0, 20));
      await index.refresh();
      await index.upsert(docs(20, 10)); // still buffered
      const r = await index.deleteByFilter({ include: { term: { genre: 'even' } }, exclude: { range: { year: { gte: 2003 } } } });
      // even ids with year 2000..2002: i % 5 in {0,1,2} and i even, over 0..29
      const expected = Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 2 === 0 && i % 5 <= 2);
      assert.equal(r.deleted, expected.length);
      assert.equal((await index.deleteByFilter({ include: { term: { genre: 'even' } }, exclude: { range: { year: { gte: 2003 } } } })).deleted, 0);
      await index.close();
      const reopened = await Index.open(await LocalDirectory.open(path), { refreshIntervalMs: 0 });
      const left = reopened.search({ size: 100 }).hits.map((h) => Number(h._id.slice(1)));
      assert.deepEqual(left.sort((a, b) => a - b), Array.from({ length: 30 }, (_, i) => i).filter((i) => !expected.includes(i)));
      await reopened.close();
    });
  }

  it('refuses a request without a filter, deleting nothing', async () => {
    const { index } = await openIndex();
    await index.upsert(docs(0, 4));
    for (const filters of [undefined, {}, null]) {
      await assert.rejects(index.deleteByFilter(filters), (e: unknown) => e instanceof YarrowError && e.code === ErrorCode.invalidQuery && /needs a filter/.test(e.message));
    }
    await assert.rejects(index.deleteByFilter({ include: { term: { title: 'x' } } }), /not filterable/);
    await index.refresh();
    assert.equal(index.stats().docs, 4);
    await index.close();
  });
});
