/**
 * The writer's per-segment id filters (`id-filter.ts`): a filter never rules out an id its
 * segment holds (deletes stay exact), and rules out nearly every id it does not; through the
 * writer, an update or delete of an id in an older segment, merged or not, still hides the old copy.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { hashIds, IdFilter } from '../../../src/engine/commit/id-filter.js';
import { TimeSlicer } from '../../../src/engine/event-loop.js';
import { Index } from '../../../src/engine/search-index.js';
import { LocalDirectory } from '../../../src/storage/local-directory.js';

const temps: string[] = [];
after(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});
async function tempDir(): Promise<LocalDirectory> {
  const path = await mkdtemp(join(tmpdir(), 'yarrow-id-filter-'));
  temps.push(path);
  return LocalDirectory.open(path);
}

describe('IdFilter', () => {
  const present = Array.from({ length: 20_000 }, (_, i) => `doc-${i}`);
  // Ids a filter must not lose whatever they hold: non-ASCII, astral, empty, long.
  present.push('ünïcödé', '漢字-id', '😀-emoji', '', 'x'.repeat(5000));

  it('answers "may contain" for every id it was built from', async () => {
    const filter = await IdFilter.build(present, present.length, new TimeSlicer());
    const hashes = hashIds(present);
    const missed = present.filter((_, i) => !filter.mightContain(hashes, i));
    assert.deepEqual(missed, []);
  });

  it('rules out all but about 1% of ids it was not built from', async () => {
    const filter = await IdFilter.build(present, present.length, new TimeSlicer());
    const absent = Array.from({ length: 20_000 }, (_, i) => `doc-${i}~2`);
    const hashes = hashIds(absent);
    const falsePositives = absent.filter((_, i) => filter.mightContain(hashes, i)).length;
    assert.ok(falsePositives < absent.length * 0.02, `${falsePositives} false positives of ${absent.length}`);
  });

  it('rules out everything when built from no id', async () => {
    const filter = await IdFilter.build([], 0, new TimeSlicer());
    assert.equal(filter.mightContain(hashIds(['a']), 0), false);
  });
});

describe('deletes by id through the filters', () => {
  const mapping = { fields: { title: { type: 'text' } } };
  const titles = (index: Index, q: string): string[] =>
    index.search({ query: { match: { title: q } }, size: 2000 }).hits.map((h) => h._id).sort();

  it('an update of an id in an older segment hides the old version, before and after a merge and a reopen', async () => {
    const dir = await tempDir();
    let index = await Index.open(dir, { mapping, refreshIntervalMs: 0, writer: { merges: false } });
    // Three older segments, so each later refresh consults (and builds) the filter of each.
    for (let s = 0; s < 3; s++) {
      await index.upsert(Array.from({ length: 300 }, (_, i) => ({ _id: `s${s}-${i}`, title: `old version ${s}` })));
      await index.refresh();
    }
    await index.upsert([{ _id: 's0-7', title: 'new version' }, { _id: 's2-299', title: 'new version' }, { _id: 'fresh', title: 'new version' }]);
    await index.delete(['s1-150']);
    await index.refresh();
    assert.deepEqual(titles(index, 'new'), ['fresh', 's0-7', 's2-299']);
    assert.equal(titles(index, 'old').length, 900 - 3);
    assert.ok(!titles(index, 'old').includes('s0-7'));
    assert.ok(!titles(index, 'old').includes('s1-150'));

    await index.forceMerge(1);
    await index.upsert([{ _id: 's1-3', title: 'newest version' }]);
    await index.refresh();
    assert.deepEqual(titles(index, 'newest'), ['s1-3']);
    assert.equal(titles(index, 'old').length, 900 - 4);
    await index.close();

    // A reopened writer builds its filters from the committed segments.
    index = await Index.open(dir, { refreshIntervalMs: 0, writer: { merges: false } });
    await index.upsert([{ _id: 's2-0', title: 'reopened version' }]);
    await index.refresh();
    assert.deepEqual(titles(index, 'reopened'), ['s2-0']);
    assert.equal(titles(index, 'old').length, 900 - 5);
    await index.close();
  });
});
