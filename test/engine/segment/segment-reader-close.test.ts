/**
 * Segment readers on a local directory hold `.fdt`, `.pst` and `.pos` open; they close them when
 * the last snapshot that contains the segment is released (snapshot.ts, SegmentReader.retain):
 * after merges, no deleted segment file stays open once the searches on older snapshots are done,
 * a search on an older snapshot still reads the right hits after a merge swapped it out, and
 * closing the index closes every handle. Checked on the process's own descriptors
 * (`/proc/self/fd`, Linux).
 */
import assert from 'node:assert/strict';
import { readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Directory } from '../../../src/engine/directory.js';
import { Index } from '../../../src/engine/search-index.js';
import type { SearchRequest } from '../../../src/engine/search-index.js';
import { prepareSearch, runSearch } from '../../../src/engine/search/search-request.js';
import { LocalDirectory } from '../../../src/storage/local-directory.js';
import { temporaryDirectories } from '../../helpers/temp-dirs.js';

const mapping = {
  fields: {
    title: { type: 'text', search: { lexical: { analyze: 'english' } }, suggest: true },
    body: { type: 'text', search: { lexical: { analyze: 'english' } } },
  },
} as const;

const tempDir = temporaryDirectories('yarrow-close-');

/** The files under `path` this process has open, by name, with `(deleted)` kept for unlinked ones. */
async function openFiles(path: string): Promise<string[]> {
  const names: string[] = [];
  for (const fd of await readdir('/proc/self/fd')) {
    let target: string;
    try {
      target = await readlink(join('/proc/self/fd', fd));
    } catch {
      continue; // the descriptor readdir itself used, closed meanwhile
    }
    if (target.startsWith(`${path}/`)) names.push(target.slice(path.length + 1));
  }
  return names.sort();
}

/** The positional files (`.fdt`, `.pst`, `.pos`) of the segments a snapshot of `index` sees now. */
function servedFiles(index: Index): string[] {
  return index.segmentFigures()
    .flatMap((s) => s.files)
    .filter((f) => /\.(fdt|pst|pos)$/.test(f))
    .sort();
}

function batch(segment: number, size = 60): { _id: string; title: string; body: string }[] {
  return Array.from({ length: size }, (_, i) => ({
    _id: `s${segment}-${i}`,
    title: `${['harbour', 'harvest', 'hazel'][i % 3]} ${segment} ${i}`,
    body: `common ${'lorem ipsum '.repeat(i % 5)} word${i % 11} seg${segment} ${i % 2 === 0 ? 'even' : 'odd'}`,
  }));
}

/**
 * A writable index of `segments` committed segments (merges off, so the count is known; on a merge
 * thread, which opens readers of its own, with `mergeThread`).
 */
async function segmented(dir: Directory, segments: number, mergeThread = false): Promise<Index> {
  const index = await Index.open(dir, { mapping, refreshIntervalMs: 0, writer: { merges: false, mergeThread } });
  for (let s = 0; s < segments; s++) {
    await index.upsert(batch(s));
    await index.commit();
  }
  return index;
}

/** The ids a search found, in id order (a merge may break score ties in another order). */
function ids(response: { hits: readonly { _id: string }[] }): string[] {
  return response.hits.map((h) => h._id).sort();
}

const request: SearchRequest = { query: { match: { body: 'even word3' } }, size: 100 };

describe('segment readers close their files with their last snapshot', () => {
  it('a search on a snapshot a merge replaced reads the right hits, and its files close when it is released', async () => {
    const path = await tempDir();
    const index = await segmented(await LocalDirectory.open(path), 3);
    try {
      const before = servedFiles(index);
      assert.equal(before.length, 9);
      assert.deepEqual(await openFiles(path), before);
      // The expected hits, from a separate reader of the same commit (its own handles and pools).
      const reference = await Index.open(await LocalDirectory.open(path), { readOnly: true });
      const expected = reference.search(request);
      await reference.close();
      assert.ok(expected.hits.length > 10);

      // What a search does for its whole duration: hold the snapshot it started on.
      const old = index.reader().acquireSnapshot();
      await index.forceMerge(1);
      await index.commit();
      const after = servedFiles(index);
      assert.equal(after.length, 3);
      assert.ok(after.every((f) => !before.includes(f)));
      // The old segments' files stay open (and on disk) while the old snapshot is held.
      assert.deepEqual(await openFiles(path), [...before, ...after].sort());

      // Terms and stored fields never read before: the old segments' files are read now.
      const onOld = runSearch(old, prepareSearch(request, index.mapping), performance.now());
      assert.deepEqual(onOld.hits, expected.hits);
      assert.equal(onOld.total, expected.total);
      // The merged segment answers the same docs.
      assert.deepEqual(ids(index.search(request)), ids(expected));

      old.release();
      assert.deepEqual(await openFiles(path), after);
      assert.ok(old.segments.every((s) => s.reader.closed));
      const now = index.reader().acquireSnapshot();
      assert.ok(now.segments.every((s) => !s.reader.closed));
      now.release();
    } finally {
      await index.close();
    }
    assert.deepEqual(await openFiles(path), [], 'closing the index closes every handle');
  });

  it('an async search in flight when a merge swaps its snapshot keeps its files open until it finishes', async () => {
    const path = await tempDir();
    const local = await LocalDirectory.open(path);
    // Holds the suggestion files' reads at a chosen point (suggest pins its snapshot across them).
    let hold: Promise<void> | null = null;
    let held: () => void = () => undefined;
    let reached: () => void = () => undefined;
    const reachedRead = new Promise<void>((resolve) => { reached = resolve; });
    const dir: Directory = Object.create(local) as Directory;
    dir.readFile = async (name: string) => {
      if (hold !== null && name.endsWith('.sgt')) {
        reached();
        await hold;
      }
      return local.readFile(name);
    };
    // The merge runs on its thread: the suggestions it merges are read anew, not waited for.
    const index = await segmented(dir, 3, true);
    try {
      // The expected suggestions, from a separate reader of the same commit.
      const reference = await Index.open(await LocalDirectory.open(path), { readOnly: true });
      const expected = (await reference.suggest({ query: 'harv', fields: ['title'], count: 50 })).suggestions;
      await reference.close();
      assert.ok(expected.length > 10);
      // The writer's readers read their suggestions on the first suggest: hold those reads.
      const before = servedFiles(index);
      hold = new Promise<void>((resolve) => { held = resolve; });
      const running = index.suggest({ query: 'harv', fields: ['title'], count: 50 });
      await reachedRead;
      hold = null;
      await index.forceMerge(1);
      await index.commit();
      const after = servedFiles(index);
      assert.ok(after.every((f) => !before.includes(f)));
      const during = await openFiles(path);
      for (const f of before) assert.ok(during.includes(f) || during.includes(`${f} (deleted)`), `${f} is open while the suggest runs`);
      held();
      const answered = (await running).suggestions;
      assert.deepEqual(answered.map((s) => s.text), expected.map((s) => s.text));
      assert.deepEqual(await openFiles(path), after);
    } finally {
      held();
      await index.close();
    }
    assert.deepEqual(await openFiles(path), []);
  });

  it('a read-only index that follows commits closes the files of segments merged away, deleted files included', async () => {
    const path = await tempDir();
    const writer = await segmented(await LocalDirectory.open(path), 4);
    const follower = await Index.open(await LocalDirectory.open(path), { readOnly: true });
    try {
      const expected = ids(follower.search(request));
      assert.ok(expected.length > 10);
      const before = servedFiles(follower);
      assert.equal(before.length, 12);
      await writer.forceMerge(1);
      await writer.commit();
      await writer.close();
      // The writer deleted the merged-away files; the follower still has them open.
      const stale = await openFiles(path);
      assert.deepEqual(stale, before.map((f) => `${f} (deleted)`).sort());
      await follower.reload();
      const after = servedFiles(follower);
      assert.equal(after.length, 3);
      assert.deepEqual(await openFiles(path), after);
      assert.deepEqual(ids(follower.search(request)), expected);
    } finally {
      await writer.close();
      await follower.close();
    }
    assert.deepEqual(await openFiles(path), []);
  });

  it('a pushing writer that merges in the background keeps no deleted file open', async () => {
    const path = await tempDir();
    const index = await Index.open(await LocalDirectory.open(path), {
      mapping,
      refreshIntervalMs: 0,
      writer: { mergePolicy: { segmentsPerTier: 2, maxMergeAtOnce: 2 } },
    });
    try {
      for (let s = 0; s < 12; s++) {
        await index.upsert(batch(s, 40));
        await index.refresh();
        // Searches between the pushes, each on the snapshot of its moment.
        assert.ok(index.search({ query: { match: { body: `seg${s}` } } }).total > 0);
        if (s % 4 === 3) await index.commit();
      }
      await index.forceMerge(1);
      await index.commit();
      const open = await openFiles(path);
      assert.deepEqual(open.filter((f) => f.endsWith('(deleted)')), []);
      assert.deepEqual(open, servedFiles(index));
      assert.equal(index.search({ query: { match: { body: 'common' } }, size: 0 }).total, 12 * 40);
    } finally {
      await index.close();
    }
    assert.deepEqual(await openFiles(path), []);
  });
});
