import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { Index } from '../../../src/engine/search-index.js';
import { LocalDirectory } from '../../../src/storage/local-directory.js';
import { FaultInjectingDirectory } from '../../../src/storage/fault-injecting-directory.js';
import { temporaryDirectories } from '../../helpers/temp-dirs.js';
import { recordingDirectory } from '../../helpers/recording-directory.js';

const mapping = {
  fields: {
    title: { type: 'text' },
    year: { type: 'int', filter: true, sort: true },
    genre: { type: 'text', filter: true, facet: true },
  },
} as const;

const tempDir = temporaryDirectories('yarrow-merge-thread-');

const docs = (from: number, n: number): object[] =>
  Array.from({ length: n }, (_, i) => ({ _id: `d${from + i}`, title: `doc ${from + i} ${(from + i) % 3 === 0 ? 'fizz' : 'buzz'}`, year: 2000 + ((from + i) % 7), genre: (from + i) % 2 === 0 ? 'even' : 'odd' }));

/** Indexes 5 segments of 40 docs with some deletes and merges them down to one; returns what a search sees. */
async function mergedFigures(mergeThread: boolean, searchable: boolean): Promise<{ hits: string[]; facet: unknown; segments: number }> {
  const path = await tempDir();
  const index = await Index.open(await LocalDirectory.open(path), { name: 'm', mapping, refreshIntervalMs: 0, searchable, writer: { merges: false, mergeThread } });
  for (let i = 0; i < 5; i++) {
    await index.upsert(docs(i * 40, 40));
    await index.refresh();
  }
  await index.delete(['d3', 'd44', 'd199']);
  await index.forceMerge(1);
  await index.commit();
  const segments = index.stats().segments;
  await index.close();
  const reader = await Index.open(await LocalDirectory.open(path), { name: 'm', mapping, readOnly: true });
  const res = await reader.searchAsync({ query: { match: { title: 'fizz' } }, size: 100, sort: [{ year: 'asc' }], aggs: { g: { term: { field: 'genre' } } } });
  await reader.close();
  return { hits: res.hits.map((h) => h._id).sort(), facet: res.aggs, segments };
}

describe('merges on a worker thread (WriterOptions.mergeThread)', () => {
  it('write the same merged segment as a merge on the writer thread, for searchable and write-only writers', async () => {
    const inline = await mergedFigures(false, true);
    const threaded = await mergedFigures(true, true);
    const writeOnly = await mergedFigures(true, false);
    assert.equal(inline.segments, 1);
    assert.equal(threaded.segments, 1);
    assert.equal(writeOnly.segments, 1);
    assert.equal(inline.hits.length, 66);
    for (const other of [threaded, writeOnly]) {
      assert.deepEqual(other.hits, inline.hits);
      assert.deepEqual(other.facet, inline.facet);
    }
    assert.ok(!threaded.hits.includes('d3'), 'a doc deleted before the merge stays deleted');
  });

  it('read the sources from the directory on the thread, where a searchable writer merges from memory', async () => {
    const reads = async (mergeThread: boolean): Promise<number> => {
      const local = await LocalDirectory.open(await tempDir());
      let count = 0;
      // A counting view of the real directory: every call goes through to it (its thread files
      // hidden, so that the merge thread reads through this thread).
      const counted = new Proxy(local, {
        get(target, prop, receiver) {
          if (prop === 'threadFiles') return undefined;
          const value = Reflect.get(target, prop, receiver) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            if (prop === 'readFile' || prop === 'readRange') count++;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
      const index = await Index.open(counted, { name: 'm', mapping, refreshIntervalMs: 0, writer: { merges: false, mergeThread } });
      for (let i = 0; i < 3; i++) {
        await index.upsert(docs(i * 10, 10));
        await index.refresh();
      }
      const before = count;
      await index.forceMerge(1);
      const during = count - before;
      await index.close();
      return during;
    };
    // On this thread the merge reads the searchable readers it holds and only opens the result;
    // on a thread of its own it reads every source part from the directory.
    const inline = await reads(false);
    const threaded = await reads(true);
    assert.ok(threaded > inline, `threaded merge read ${threaded} times, inline ${inline}`);
  });

  it('take over the bytes read for the thread (no clone left here) and open the merged segment from the bytes written', async () => {
    const local = await LocalDirectory.open(await tempDir());
    const reads: { name: string; bytes: Uint8Array }[] = [];
    // A recording view of the real directory: every call goes through to it (its thread files
    // hidden, so that the merge thread reads through this thread).
    const recorded = new Proxy(local, {
      get(target, prop, receiver) {
        if (prop === 'threadFiles') return undefined;
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        if (prop !== 'readFile') return (value as (...a: unknown[]) => unknown).bind(target);
        return async (name: string) => {
          const bytes = await local.readFile(name);
          reads.push({ name, bytes });
          return bytes;
        };
      },
    });
    const index = await Index.open(recorded, { name: 'm', mapping, refreshIntervalMs: 0, writer: { merges: false, mergeThread: true } });
    for (let i = 0; i < 3; i++) {
      await index.upsert(docs(i * 30, 30));
      await index.refresh();
    }
    const before = new Set(await local.list());
    reads.length = 0;
    await index.forceMerge(1);
    const merged = (await local.list()).filter((f) => !before.has(f) && f.startsWith('seg-'));
    assert.ok(reads.length > 0 && merged.length > 0, JSON.stringify({ reads: reads.length, merged }));
    assert.deepEqual(reads.filter((r) => r.bytes.byteLength > 0).map((r) => r.name), [], 'every source read went to the thread');
    assert.deepEqual(reads.filter((r) => merged.includes(r.name)).map((r) => r.name), [], 'the merged segment was not read back');
    assert.equal(index.search({ query: { match: { title: 'fizz' } }, size: 100 }).total, 30);
    await index.close();
  });

  it('read and write a local directory\'s files on the thread itself; the commit fsyncs them and their entries', async () => {
    const path = await tempDir();
    const local = await LocalDirectory.open(path);
    // A recording view of the real directory: every call goes through to it.
    const { dir: recorded, calls } = recordingDirectory(local);
    const index = await Index.open(recorded, { name: 'm', mapping, refreshIntervalMs: 0, writer: { merges: false, mergeThread: true } });
    for (let i = 0; i < 3; i++) {
      await index.upsert(docs(i * 30, 30));
      await index.refresh();
    }
    await index.commit();
    const before = new Set(await local.list());
    calls.length = 0;
    await index.forceMerge(1);
    const merged = (await local.list()).filter((f) => !before.has(f) && f.startsWith('seg-'));
    assert.ok(merged.length > 0, 'the merge wrote a segment');
    const io = calls.filter((c) => ['readFile', 'readRange', 'writeFile'].includes(c.op));
    assert.deepEqual(io, [], 'the writer\'s thread neither read the sources nor wrote the merged files');
    assert.ok(calls.some((c) => c.op === 'wroteOnThread' && c.names.length > 0), 'the thread\'s files were reported');
    calls.length = 0;
    await index.commit();
    const synced = new Set(calls.filter((c) => c.op === 'sync').flatMap((c) => c.names));
    assert.deepEqual(merged.filter((f) => !synced.has(f)), [], 'the commit fsyncs every file the thread wrote');
    assert.equal(index.search({ query: { match: { title: 'fizz' } }, size: 100 }).total, 30);
    await index.close();
    const reopened = await Index.open(await LocalDirectory.open(path), { name: 'm', mapping, readOnly: true });
    assert.equal(reopened.stats().docs, 90);
    assert.equal(reopened.stats().segments, 1);
    await reopened.close();
  });

  it('fail the merge with the write error and leave no merged file behind when a write fails', async () => {
    const path = await tempDir();
    const faulty = new FaultInjectingDirectory(await LocalDirectory.open(path));
    const index = await Index.open(faulty, { name: 'm', mapping, refreshIntervalMs: 0, writer: { merges: false, mergeThread: true } });
    for (let i = 0; i < 3; i++) {
      await index.upsert(docs(i * 10, 10));
      await index.refresh();
    }
    await index.commit();
    const before = new Set(await readdir(path));
    // The fifth file is the first of the doc-values phase: the postings phase's four are written.
    faulty.failOn('writeFile', 5, new Error('disk full'));
    await assert.rejects(index.forceMerge(1), /disk full/);
    await index.close();
    // Whatever the failed merge wrote is deleted; the committed segments are all still there.
    const segmentFiles = (names: Iterable<string>): string[] => [...names].filter((f) => f.startsWith('seg-')).sort();
    assert.deepEqual(segmentFiles(await readdir(path)), segmentFiles(before));
    const reopened = await Index.open(await LocalDirectory.open(path), { name: 'm', mapping, readOnly: true });
    assert.equal(reopened.stats().docs, 30);
    await reopened.close();
  });
});
