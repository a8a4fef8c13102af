import assert from 'node:assert/strict';
import { cp } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { Index } from '../../../src/engine/search-index.js';
import { InversionThread, ThreadedSegmentBuffer, ownBytes } from '../../../src/engine/commit/threaded-segment-buffer.js';
import { decodeWalPayload, replayWal } from '../../../src/engine/commit/wal-replay.js';
import { RECORD_FRAME, WriteAheadLog } from '../../../src/engine/commit/write-ahead-log.js';
import { WAL_VERSION } from '../../../src/engine/index-files.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';
import { LocalDirectory } from '../../../src/storage/local-directory.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';
import { temporaryDirectories } from '../../helpers/temp-dirs.js';
import { recordingDirectory } from '../../helpers/recording-directory.js';

const mapping = {
  fields: {
    title: { type: 'text', search: { lexical: { analyze: 'english' } } },
    body: { type: 'text' },
    tags: { type: 'text[]', search: false, filter: true, facet: true },
    year: { type: 'int', filter: true, sort: true },
  },
};

const words = ['river', 'stone', 'garden', 'yarrow', 'running', 'quiet', 'lantern', 'bridge', 'northern', 'ferry', 'ŝtono', 'höhe', '東京'];

/** Deterministic documents: ids repeat (replacements within and across batches), text varies. */
function batch(round: number, size: number): Record<string, unknown>[] {
  return Array.from({ length: size }, (_, i) => {
    const n = round * size + i;
    const pick = (k: number): string => words[(n * 7 + k * 3) % words.length];
    return {
      _id: `d${n % 700}`,
      title: `${pick(1)} ${pick(2)} ${n}`,
      body: `${pick(3)} ${pick(4)} ${pick(5)} of the ${pick(6)}`,
      tags: [pick(7), pick(8)],
      year: 1900 + (n % 120),
    };
  });
}

/**
 * Everything a search can tell about an index: hits with stored fields, facets, and per query the
 * matching ids with their scores (`scores`: false when segment boundaries may differ, as BM25
 * statistics count the deleted docs a segment still holds).
 */
function observe(index: Index, scores = true): unknown {
  const all = index.search({ query: { match_all: {} }, size: 1000, sort: [{ year: 'asc' }] });
  const hits = [...all.hits].sort((a, b) => (a._id < b._id ? -1 : 1));
  const scored = words.map((w) => {
    const res = index.search({ query: { multi_match: { query: `${w} garden`, fields: ['title', 'body'] } }, size: 1000 });
    return scores ? res.hits.map((h) => [h._id, h._score]) : res.hits.map((h) => h._id).sort();
  });
  const facets = index.search({ query: { match_all: {} }, size: 0, aggs: { tags: { term: { field: 'tags', size: 20 } } } });
  return { total: all.total, hits, scored, facets: facets.aggs };
}

/** Writes the same sequence of batches, deletes, refreshes and a commit through one index. */
async function writeSequence(index: Index): Promise<void> {
  for (let round = 0; round < 6; round++) {
    await index.upsert(batch(round, 250));
    if (round === 2) await index.delete(['d3', 'd4', 'd5', 'missing']);
    if (round % 2 === 1) await index.refresh();
  }
  await index.commit();
  await index.upsert(batch(9, 40));
  await index.delete(['d10']);
}

const tempDir = temporaryDirectories('yarrow-inversion-thread-');

describe('inversion thread (WriterOptions.inversionThreads)', () => {
  it('builds the same index as inverting on the calling thread: hits, stored fields, scores and facets', async () => {
    const local = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, writer: { merges: false } });
    const threaded = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, writer: { inversionThreads: 1, merges: false } });
    // A small buffer limit flushes by size, after every batch.
    const small = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, writer: { inversionThreads: 1, maxBufferBytes: 64 * 1024, merges: false } });
    for (const ix of [local, threaded, small]) {
      await writeSequence(ix);
      await ix.refresh();
    }
    const expected = observe(local);
    // 700 ids; d3-d5 are deleted and written again later, d10 is deleted last.
    assert.equal((expected as { total: number }).total, 699);
    assert.deepEqual(observe(threaded), expected);
    assert.deepEqual(observe(small, false), observe(local, false));
    assert.ok(small.stats().segments > threaded.stats().segments, `${small.stats().segments} segments flushed by size`);
    for (const ix of [local, threaded, small]) await ix.close();
  });

  it('keeps every acknowledged batch through a crash, replaying the log into a thread again', async () => {
    const dir = new MemoryDirectory();
    const index = await Index.open(dir, { mapping, refreshIntervalMs: 0, writer: { inversionThreads: 1 } });
    await writeSequence(index);
    // The process dies here: the last batch and delete were acknowledged but never committed.
    const replayedLocal = await Index.open(dir.crashCopy(), { refreshIntervalMs: 0, writer: { merges: false } });
    const replayedThreaded = await Index.open(dir.crashCopy(), { refreshIntervalMs: 0, writer: { inversionThreads: 1, merges: false } });
    await index.refresh();
    const expected = observe(index, false);
    assert.deepEqual(observe(replayedLocal, false), expected);
    assert.deepEqual(observe(replayedThreaded), observe(replayedLocal));
    for (const ix of [replayedLocal, replayedThreaded, index]) await ix.close();
  });

  it('writes a local directory\'s segment files on the thread; the commit fsyncs them, and a reopened index reads them', async () => {
    const path = await tempDir();
    // A recording view of the real directory: every call goes through to it.
    const { dir: recorded, calls } = recordingDirectory(await LocalDirectory.open(path));
    const reference = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, writer: { merges: false } });
    const index = await Index.open(recorded, { mapping, refreshIntervalMs: 0, writer: { inversionThreads: 1, merges: false } });
    for (const ix of [reference, index]) {
      await writeSequence(ix);
      await ix.refresh();
    }
    assert.deepEqual(observe(index), observe(reference));
    const reported = calls.filter((c) => c.op === 'wroteOnThread').flatMap((c) => c.names);
    assert.ok(reported.some((f) => f.startsWith('seg-')), 'the thread reported the segment files it wrote');
    const written = calls.filter((c) => c.op === 'writeFile').flatMap((c) => c.names);
    assert.deepEqual(written.filter((f) => reported.includes(f)), [], 'this thread wrote none of them again');
    await index.commit();
    const synced = new Set(calls.filter((c) => c.op === 'sync').flatMap((c) => c.names));
    const files = await recorded.list();
    assert.deepEqual(reported.filter((f) => files.includes(f) && !synced.has(f)), [], 'every committed file the thread wrote was fsynced');
    await index.close();
    const reopened = await Index.open(await LocalDirectory.open(path), { refreshIntervalMs: 0, readOnly: true });
    assert.deepEqual(observe(reopened), observe(reference));
    for (const ix of [reopened, reference]) await ix.close();
  });

  it('rolls back what the thread buffered', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, writer: { inversionThreads: 1 } });
    await index.upsert([{ _id: 'kept', title: 'committed river' }]);
    await index.commit();
    await index.upsert([{ _id: 'gone', title: 'buffered river' }]);
    await index.rollback();
    await index.upsert([{ _id: 'after', title: 'river after the rollback' }]);
    await index.refresh();
    const hits = index.search({ query: { match: { title: 'river' } }, size: 10 }).hits.map((h) => h._id).sort();
    assert.deepEqual(hits, ['after', 'kept']);
    await index.close();
  });

  it('carries pre-embedded vectors to the thread: knn answers as when inverting on the calling thread', async () => {
    const vectorMapping = { fields: { title: { type: 'text', search: { semantic: { dim: 4 } } }, year: { type: 'int', filter: true } } };
    const docs = Array.from({ length: 300 }, (_, i) => ({
      _id: `v${i}`,
      title: { text: `doc ${i}`, embedding: [Math.cos(i), Math.sin(i), (i % 7) / 7, 1] },
      year: 2000 + (i % 20),
    }));
    const local = await Index.open(new MemoryDirectory(), { mapping: vectorMapping, refreshIntervalMs: 0, writer: { merges: false } });
    const threaded = await Index.open(new MemoryDirectory(), { mapping: vectorMapping, refreshIntervalMs: 0, writer: { inversionThreads: 1, maxBufferBytes: 16 * 1024, merges: false } });
    for (const ix of [local, threaded]) {
      for (let i = 0; i < docs.length; i += 50) await ix.upsert(docs.slice(i, i + 50));
      await ix.refresh();
    }
    const knn = (ix: Index): unknown =>
      ix.search({ query: { knn: { field: 'title', query_vector: [1, 0.5, 0.2, 1], k: 10 } }, filters: { include: { range: { year: { gte: 2005 } } } }, size: 10 }).hits.map((h) => [h._id, h._score]);
    const expected = knn(local);
    assert.equal((expected as unknown[]).length, 10);
    assert.deepEqual(knn(threaded), expected);
    assert.ok(threaded.stats().segments > 1, 'the thread flushed vectors into several segments');
    for (const ix of [local, threaded]) await ix.close();
  });
  it('hands a body\'s own chunks to the thread without copying them, and copies views into larger buffers', async () => {
    const lines = batch(0, 300).map((d) => `${JSON.stringify(d)}\n`).join('');
    const bytes = new TextEncoder().encode(lines);
    // Chunks of their own (as node hands a socket's body over), then views into one shared buffer.
    const own = Array.from({ length: 10 }, (_, i) => bytes.slice(i * 1000, (i + 1) * 1000));
    const shared = new Uint8Array(bytes.buffer.slice(10_000));
    const views = Array.from({ length: Math.ceil(shared.length / 1000) }, (_, i) => shared.subarray(i * 1000, (i + 1) * 1000));
    const threaded = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, writer: { inversionThreads: 1, merges: false } });
    const written = threaded.writer().upsertBody(Readable.from([...own, ...views]));
    assert.notEqual(written, null);
    assert.deepEqual(await written, { docs: 300, bytes: bytes.length });
    assert.ok(own.every((c) => c.byteLength === 0), 'each chunk of its own was transferred (detached here)');
    assert.equal(shared.byteLength, bytes.length - 10_000, 'the shared buffer stays whole: its views were copied');
    await threaded.refresh();
    const local = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, writer: { merges: false } });
    await local.upsert(batch(0, 300));
    await local.refresh();
    assert.deepEqual(observe(threaded), observe(local));
    for (const ix of [local, threaded]) await ix.close();
  });

  it('hands a body\'s record over to be logged without local files, and takes it back once it is applied', async () => {
    const thread = new InversionThread(parseMapping(mapping, 'mapping'));
    const buffer = new ThreadedSegmentBuffer(thread);
    const body = new TextEncoder().encode(batch(1, 50).map((d) => JSON.stringify(d)).join('\n'));
    const parsed = await thread.parseBody(Readable.from([body]));
    assert.equal(parsed.docs, 50);
    assert.ok(parsed.recordLength > body.length / 2);
    const record = await thread.logParsed(parsed.batch, 'wal-1.log');
    assert.ok(record !== null, 'a thread without files returns the record even when given a file name');
    assert.equal(record.byteLength, parsed.recordLength);
    const ops = decodeWalPayload(record.subarray(RECORD_FRAME), WAL_VERSION, 'record', 0).ops;
    assert.deepEqual(ops.map((op) => (op.kind === 'upsert' ? op.id : op.kind)), batch(1, 50).map((d) => d._id));
    await buffer.applyParsed(parsed, record);
    assert.equal(record.byteLength, 0, 'the record no longer lives on this thread');
    const flushed = await buffer.flush('_s1');
    assert.equal(flushed.info.maxDoc, 50);
    await thread.terminate();
  });

  it('appends a body\'s record to a local log itself, in the log\'s order, readable by a replay', async () => {
    const path = await tempDir();
    const dir = await LocalDirectory.open(path);
    const thread = new InversionThread(parseMapping(mapping, 'mapping'), 0, dir.threadFiles());
    const wal = await WriteAheadLog.open(dir, 1);
    const bodies = [batch(2, 40), batch(3, 30)];
    const logged: (Uint8Array | null)[] = [];
    const first = await thread.parseBody(Readable.from([new TextEncoder().encode(bodies[0].map((d) => JSON.stringify(d)).join('\n'))]));
    const second = await thread.parseBody(Readable.from([new TextEncoder().encode(bodies[1].map((d) => JSON.stringify(d)).join('\n'))]));
    // As the writer does, one append after another (its mutex), with one of this thread's between.
    const ends = [
      await wal.appendFrom(first.recordLength, async (file) => { logged.push(await thread.logParsed(first.batch, file)); return logged[0]; }),
      await wal.append([{ d: 'between' }]),
      await wal.appendFrom(second.recordLength, async (file) => { logged.push(await thread.logParsed(second.batch, file)); return logged[1]; }),
    ];
    assert.deepEqual(logged, [null, null], 'the thread appended both records itself');
    assert.equal(ends[2] - ends[1], second.recordLength, 'the log counts the bytes the thread appended');
    await wal.syncTo(ends[2]);
    await wal.close();
    const replayed: string[][] = [];
    await replayWal(await LocalDirectory.open(path), 1, (ops) => { replayed.push(ops.map((op) => (op.kind === 'upsert' ? op.id : op.kind === 'delete' ? `-${op.id}` : 'raw'))); });
    assert.deepEqual(replayed, [bodies[0].map((d) => d._id), ['-between'], bodies[1].map((d) => d._id)]);
    await thread.terminate();
  });

  it('replaces documents of earlier bodies by id on a local directory, where the thread logs the bodies, and replays them after a crash', async () => {
    const path = await tempDir();
    const threaded = await Index.open(await LocalDirectory.open(path), { mapping, refreshIntervalMs: 0, writer: { inversionThreads: 1, merges: false } });
    const local = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, writer: { merges: false } });
    // Ids repeat within and across bodies (d0-d699); a refresh between some bodies puts earlier
    // copies in segments, which the later bodies' ids must delete.
    for (let round = 0; round < 5; round++) {
      const docs = batch(round, 300);
      const written = threaded.writer().upsertBody(Readable.from([new TextEncoder().encode(docs.map((d) => JSON.stringify(d)).join('\n'))]));
      assert.notEqual(written, null);
      assert.equal((await written)!.docs, 300);
      await local.upsert(docs);
      if (round % 2 === 0) {
        await threaded.refresh();
        await local.refresh();
      }
    }
    await threaded.refresh();
    await local.refresh();
    assert.equal((observe(local) as { total: number }).total, 700);
    assert.deepEqual(observe(threaded, false), observe(local, false));
    // Nothing committed: the files as a SIGKILL leaves them (the writer's lock left out) replay
    // every body from the log the thread appended to.
    const copy = await tempDir();
    await cp(path, copy, { recursive: true, filter: (from) => !from.endsWith('write.lock') });
    const replayed = await Index.open(await LocalDirectory.open(copy), { refreshIntervalMs: 0, writer: { merges: false } });
    await replayed.refresh();
    assert.deepEqual(observe(replayed, false), observe(local, false));
    for (const ix of [replayed, local]) await ix.close();
    await threaded.close();
  });

  it('copies a chunk only when it is a view into a larger buffer (ownBytes)', () => {
    const whole = new Uint8Array([1, 2, 3]);
    assert.equal(ownBytes(whole).buffer, whole.buffer);
    const view = new Uint8Array(8).subarray(2, 5);
    const copied = ownBytes(view);
    assert.notEqual(copied.buffer, view.buffer);
    assert.equal(copied.buffer.byteLength, 3);
    assert.deepEqual([...copied.bytes], [...view]);
  });
});
