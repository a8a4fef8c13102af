/**
 * `FileIndexer` with bulk loading (engine/commit/bulk-load.ts) against the logged path it
 * replaces: the same file gives the same index whatever the chunking and however many segments
 * the threads build, and a bad line is reported by its line with nothing of the file kept.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { prestartBulkThreads, stopPrestartedBulkThreads } from '../../src/engine/commit/bulk-load.js';
import { startEngineWorker } from '../../src/engine/commit/engine-worker.js';
import { Index } from '../../src/engine/search-index.js';
import { FileIndexer } from '../../src/ingest/file-indexer.js';
import { LocalFileSource } from '../../src/ingest/local-file-source.js';
import { ProgressReporter } from '../../src/ingest/progress-reporter.js';
import { MemoryDirectory } from '../../src/storage/memory-directory.js';

const mapping = {
  fields: {
    title: { type: 'text', search: { lexical: { analyze: 'english' } } },
    tags: { type: 'text[]', search: false, filter: true, facet: true },
    year: { type: 'int', filter: true, sort: true },
  },
};

const words = ['river', 'stone', 'garden', 'yarrow', 'quiet', 'lantern', 'ŝtono', 'höhe', '東京', 'café'];

/**
 * A file with every case the line cutter and the id resolution meet: a byte order mark, CRLF and
 * blank lines, multi-byte characters, documents without `_id`, and ids repeated far apart (the
 * later line must win wherever the two copies end up).
 */
function fileText(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const pick = (k: number): string => words[(i * 7 + k * 3) % words.length];
    if (i % 97 === 13) {
      out.push(i % 2 === 0 ? '' : '  \r');
      continue;
    }
    const doc: Record<string, unknown> = { title: `${pick(1)} ${pick(2)} ${i}`, tags: [pick(3)], year: 1900 + (i % 120) };
    if (i % 5 !== 0) doc._id = `d${i % 400}`;
    out.push(JSON.stringify(doc) + (i % 11 === 0 ? '\r' : ''));
  }
  return `\ufeff${out.join('\n')}`;
}

async function indexFile(path: string, bulkThreads: number, chunkBytes?: number, maxBufferBytes = 64 * 1024): Promise<{ index: Index; dir: MemoryDirectory; error: unknown }> {
  const dir = new MemoryDirectory();
  const index = await Index.open(dir, { mapping, refreshIntervalMs: 0, writer: { maxBufferBytes, merges: false } });
  const indexer = new FileIndexer({
    target: index,
    progress: new ProgressReporter({ log: () => undefined }),
    checkpointKey: 'file:///input',
    batchBytes: 4096,
    bulkThreads,
    ...(chunkBytes === undefined ? {} : { chunkBytes }),
  });
  const objects = await new LocalFileSource(path, path, { recursive: false }).list();
  let error: unknown = null;
  await indexer.indexAll(objects).catch((e: unknown) => { error = e; });
  return { index, dir, error };
}

/** Everything a search can tell: stored documents by id, matches per word, facets. */
function observe(index: Index): unknown {
  const all = index.search({ query: { match_all: {} }, size: 5000 });
  const docs = all.hits.map((h) => JSON.stringify(h._source ?? h)).sort();
  const matches = words.map((w) => index.search({ query: { match: { title: w } }, size: 5000 }).hits.map((h) => h._id).sort());
  const facets = index.search({ query: { match_all: {} }, size: 0, aggs: { tags: { term: { field: 'tags', size: 20 } } } }).aggs;
  return { total: all.total, docs, matches, facets };
}

describe('FileIndexer bulk loading', () => {
  it('indexes a file as the logged path does, whatever the chunk size', { timeout: 120_000 }, async () => {
    const work = await mkdtemp(join(tmpdir(), 'yarrow-bulk-'));
    try {
      const path = join(work, 'input.jsonl');
      await writeFile(path, fileText(3000));
      const logged = await indexFile(path, 0);
      assert.equal(logged.error, null);
      const expected = observe(logged.index);
      for (const chunkBytes of [700, 5000, undefined]) {
        const bulk = await indexFile(path, 2, chunkBytes);
        assert.equal(bulk.error, null);
        if (chunkBytes !== undefined) assert.ok(bulk.index.stats().segments > 2, `both threads flushed several segments (${JSON.stringify(bulk.index.stats())})`);
        assert.deepEqual(observe(bulk.index), expected, `chunks of ${chunkBytes ?? 'default'} bytes`);
        await bulk.index.close();
      }
      await logged.index.close();
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it('flushes a bulk thread\'s buffer at 1.5 times the writer\'s buffer size: fewer, larger segments', { timeout: 120_000 }, async () => {
    const work = await mkdtemp(join(tmpdir(), 'yarrow-bulk-'));
    try {
      const path = join(work, 'input.jsonl');
      await writeFile(path, fileText(40_000));
      // The logged path flushes its one buffer at the writer's size, by the same estimate (a
      // buffer well above the few hundred KB an empty one's arrays take).
      const logged = await indexFile(path, 0, undefined, 1024 * 1024);
      const bulk = await indexFile(path, 1, 16 * 1024, 1024 * 1024);
      const [l, b] = [logged.index.stats().segments, bulk.index.stats().segments];
      assert.ok(l >= 6, `the logged path made ${l} segments`);
      assert.ok(b <= l * 0.75, `bulk made ${b} segments where the logged path made ${l}`);
      assert.deepEqual(observe(bulk.index), observe(logged.index));
      await Promise.all([logged.index.close(), bulk.index.close()]);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it('loads on threads started before the index opened, and on new ones when those died', { timeout: 120_000 }, async () => {
    const work = await mkdtemp(join(tmpdir(), 'yarrow-bulk-'));
    try {
      const path = join(work, 'input.jsonl');
      await writeFile(path, fileText(3000));
      const logged = await indexFile(path, 0);
      const expected = observe(logged.index);
      await logged.index.close();
      let started = 0;
      const start = (): Worker => {
        started++;
        return startEngineWorker('bulk-load-worker', null);
      };
      prestartBulkThreads(2, start);
      assert.equal(started, 2);
      const bulk = await indexFile(path, 2, 5000);
      assert.equal(bulk.error, null);
      assert.deepEqual(observe(bulk.index), expected);
      await bulk.index.close();
      // The load took both: topping the pool up starts two more, which are stopped unused.
      prestartBulkThreads(2, start);
      assert.equal(started, 4);
      await stopPrestartedBulkThreads();

      // Threads that die before a load takes them are passed over.
      const dead = [0, 1].map(() => new Worker('process.exit(3)', { eval: true }));
      let index = 0;
      prestartBulkThreads(2, () => dead[index++]);
      // The pool does not keep the process alive; this test waits for their exit.
      for (const w of dead) w.ref();
      await Promise.all(dead.map((w) => new Promise((resolve) => { w.once('exit', resolve); })));
      const fresh = await indexFile(path, 2, 5000);
      assert.equal(fresh.error, null);
      assert.deepEqual(observe(fresh.index), expected);
      await fresh.index.close();
    } finally {
      await stopPrestartedBulkThreads();
      await rm(work, { recursive: true, force: true });
    }
  });

  it('refuses a line of ill-formed UTF-8 naming it, as _index does, and keeps nothing of its file', { timeout: 120_000 }, async () => {
    const work = await mkdtemp(join(tmpdir(), 'yarrow-bulk-'));
    try {
      const lines = fileText(3000).split('\n').map((l) => Buffer.from(l));
      // A lone continuation byte inside a string: decoding would have made it U+FFFD.
      lines[2100] = Buffer.concat([Buffer.from('{"title": "caf'), Buffer.from([0xa9]), Buffer.from('"}')]);
      await writeFile(join(work, 'u.jsonl'), Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])));
      const { index, error } = await indexFile(work, 2, 2048);
      assert.ok(error instanceof Error);
      assert.match(error.message, /u\.jsonl, line 2101: invalid UTF-8: byte 0xa9 at byte offset 14 of the line/);
      assert.equal(index.search({ query: { match_all: {} }, size: 0 }).total, 0, 'nothing of the file is committed');
      await index.close();
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it('reports the first bad line of the file and keeps nothing of it', { timeout: 120_000 }, async () => {
    const work = await mkdtemp(join(tmpdir(), 'yarrow-bulk-'));
    try {
      const good = join(work, 'a.jsonl');
      await writeFile(good, fileText(500));
      const lines = fileText(4000).split('\n');
      // Two bad lines far apart, so they fall into chunks of different threads.
      lines[1500] = '{"title": "unterminated';
      lines[3200] = '{"title": "x", "year": "not a number"}';
      await writeFile(join(work, 'b.jsonl'), lines.join('\n'));
      const { index, dir, error } = await indexFile(work, 2, 2048);
      assert.ok(error instanceof Error);
      assert.match(error.message, /b\.jsonl, line 1501: invalid JSON/);
      const onlyA = await indexFile(good, 2);
      assert.deepEqual(observe(index), observe(onlyA.index), 'the first file stays committed, nothing of the second');
      await index.close();
      const committed = JSON.stringify(JSON.parse(Buffer.from(await dir.readFile('index.json')).toString('utf8')));
      const stray = (await dir.list()).filter((n) => n.startsWith('seg-') && !committed.includes(n.replace(/\..*/, '')));
      assert.deepEqual(stray, [], 'the segments of the failed file are deleted');
      await onlyA.index.close();
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
