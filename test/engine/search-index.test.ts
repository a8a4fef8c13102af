import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ErrorCode, YarrowError } from '../../src/engine/errors.js';
import { Index } from '../../src/engine/search-index.js';
import type { Logger } from '../../src/engine/logger.js';
import { LocalDirectory } from '../../src/storage/local-directory.js';
import { MemoryDirectory } from '../../src/storage/memory-directory.js';
import { temporaryDirectories } from '../helpers/temp-dirs.js';

const mapping = {
  fields: {
    title: { type: 'text', search: { lexical: { analyze: 'english' } } },
    body: { type: 'text' },
    year: { type: 'int', filter: true, sort: true },
  },
};

const tempDir = temporaryDirectories('yarrow-index-');

function ids(res: { hits: readonly { _id: string }[] }): string[] {
  return res.hits.map((h) => h._id);
}

function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: string): void => {
    lines.push(m);
  };
  return { lines, debug: push, info: push, warn: push, error: push };
}

describe('Index', () => {
  it('makes upserted documents searchable after a refresh, with stored fields', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
    await index.upsert([
      { _id: 'a', title: 'The Running Man', body: 'a man runs', year: 1987 },
      { _id: 'b', title: 'Blade Runner', body: 'replicants', year: 1982 },
    ]);
    assert.equal(index.search({ query: { match: { title: 'running' } } }).total, 0, 'not visible before refresh');
    await index.refresh();
    const res = index.search({ query: { match: { title: 'runs' } } });
    assert.deepEqual(ids(res), ['a']);
    assert.deepEqual({ ...res.hits[0], _score: 0 }, { _id: 'a', _score: 0, title: 'The Running Man', body: 'a man runs', year: 1987 });
    await index.close();
  });

  it('returns only the requested stored fields, with wildcards', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
    await index.upsert([{ _id: 'f', title: 'field selection', body: 'text', year: 2000 }]);
    await index.refresh();
    const only = (fields: string[]): unknown => {
      const { _score, ...rest } = index.search({ query: { match: { title: 'field' } }, fields }).hits[0];
      assert.ok(_score > 0);
      return rest;
    };
    assert.deepEqual(only(['_id']), { _id: 'f' });
    assert.deepEqual(only([]), { _id: 'f' });
    assert.deepEqual(only(['year']), { _id: 'f', year: 2000 });
    assert.deepEqual(only(['t*', 'b*']), { _id: 'f', title: 'field selection', body: 'text' });
    await index.close();
  });

  it('replaces a document with the same _id and never returns two versions', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
    await index.upsert([{ _id: 'x', title: 'old title' }]);
    await index.refresh();
    await index.upsert([{ _id: 'x', title: 'new title' }, { _id: 'y', title: 'other title' }]);
    await index.upsert([{ _id: 'y', title: 'newest other title' }]);
    await index.refresh();
    const res = index.search({ query: { match: { title: 'title' } }, track_total_hits: true });
    assert.deepEqual(ids(res).sort(), ['x', 'y']);
    assert.equal(index.search({ query: { match: { title: 'old' } } }).total, 0);
    assert.equal(index.stats().docs, 2);
    await index.close();
  });

  it('deletes by id', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
    await index.upsert([{ _id: '1', title: 'alpha' }, { _id: '2', title: 'alpha beta' }]);
    await index.refresh();
    await index.delete(['1']);
    await index.refresh();
    assert.deepEqual(ids(index.search({ query: { match: { title: 'alpha' } } })), ['2']);
    await index.close();
  });

  it('generates an id for documents without one', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
    await index.upsert([{ title: 'anonymous' }]);
    await index.refresh();
    const [hit] = index.search({ query: { match_all: {} } }).hits;
    assert.match(hit._id, /^[0-9a-f-]{36}$/);
    await index.close();
  });

  it('rejects a whole batch when one document is invalid, naming line, field and types', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
    await assert.rejects(
      index.upsert([{ _id: 'ok', title: 'fine' }, { _id: 'bad', year: 'nineteen' }], { source: 'docs.jsonl', firstLine: 10 }),
      (e: unknown) => {
        assert.ok(e instanceof YarrowError);
        assert.equal(e.code, ErrorCode.invalidDocument);
        assert.equal(e.details.line, 11);
        assert.equal(e.details.field, 'year');
        assert.equal(e.details.expected, 'int');
        assert.equal(e.details.actual, 'string');
        return true;
      },
    );
    await index.refresh();
    assert.equal(index.stats().docs, 0);
    await index.close();
  });

  it('keeps committed documents across close and reopen, and logs each commit with seq and files', async () => {
    const path = await tempDir();
    const log = capture();
    const index = await Index.open(await LocalDirectory.open(path), { mapping, refreshIntervalMs: 0, logger: log });
    await index.upsert([{ _id: 'p', title: 'persistent doc' }]);
    const commit = await index.commit();
    assert.equal(commit.seq, 1);
    assert.ok(log.lines.some((l) => l.startsWith('commit seq=1 files=[') && commit.files.every((f) => l.includes(f))));
    await index.close();
    const manifest = JSON.parse(await readFile(join(path, 'index.json'), 'utf8')) as { seq: number; formatVersion: number };
    assert.equal(manifest.formatVersion, 2);
    const reopened = await Index.open(await LocalDirectory.open(path), { refreshIntervalMs: 0 });
    assert.deepEqual(ids(reopened.search({ query: { match: { title: 'persistent' } } })), ['p']);
    assert.deepEqual(await reopened.verify(), { files: commit.files.length, bytes: (await reopened.verify()).bytes });
    await reopened.close();
  });

  it('replays acknowledged writes from the write-ahead log after a crash', async () => {
    const dir = new MemoryDirectory();
    const index = await Index.open(dir, { mapping, refreshIntervalMs: 0 });
    await index.upsert([{ _id: 'c1', title: 'committed' }]);
    await index.commit();
    await index.upsert([{ _id: 'w1', title: 'only in the log' }]);
    await index.delete(['c1']);
    // The process "dies" here: only what was synced survives.
    const reopened = await Index.open(dir.crashCopy(), { refreshIntervalMs: 0 });
    assert.deepEqual(ids(reopened.search({ query: { match_all: {} } })), ['w1']);
    await reopened.close();
    await index.close();
  });

  it('keeps a large batch all-or-nothing in one log record while yielding to searches as it inverts', async () => {
    const dir = new MemoryDirectory();
    const index = await Index.open(dir, { mapping, refreshIntervalMs: 0 });
    const batch = Array.from({ length: 3000 }, (_, i) => ({ _id: `b${i}`, title: `batch document ${i}` }));
    let settled = false;
    const writing = index.upsert(batch).then(() => {
      settled = true;
    });
    // A search gets its turn while the batch is still being written.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(settled, false);
    assert.equal(index.search({ query: { match_all: {} } }).total, 0);
    await writing;
    const reopened = await Index.open(dir.crashCopy(), { refreshIntervalMs: 0 });
    assert.equal(reopened.stats().docs, 3000);
    await reopened.close();
    await index.close();
  });

  it('counts the commits and refreshes it makes, automatic ones included', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, writer: { maxWalBytes: 1 } });
    assert.deepEqual([index.stats().commits, index.stats().refreshes], [0, 0]);
    await index.upsert([{ _id: 'auto', title: 'a write past the WAL limit commits by itself' }]);
    const stats = index.stats();
    assert.deepEqual([stats.commits, stats.refreshes, stats.walBytes, stats.docs], [1, 1, 0, 1]);
    await index.close();
  });

  it('rolls back every write since the last commit, durably', async () => {
    const dir = new MemoryDirectory();
    const index = await Index.open(dir, { mapping, refreshIntervalMs: 0, writer: { mergePolicy: { segmentsPerTier: 2, maxMergeAtOnce: 2 } } });
    await index.upsert([{ _id: 'keep', title: 'kept document' }, { _id: 'doomed', title: 'committed then deleted' }]);
    await index.commit();
    for (let i = 0; i < 4; i++) {
      await index.upsert([{ _id: `new${i}`, title: 'uncommitted document' }, { _id: 'keep', title: 'overwritten' }]);
      await index.refresh();
    }
    await index.delete(['doomed']);
    await index.refresh();
    assert.equal(index.stats().docs, 5);
    await index.rollback();
    const expectCommitted = (ix: Index): void => {
      assert.deepEqual(ids(ix.search({ query: { match_all: {} } })).sort(), ['doomed', 'keep']);
      assert.deepEqual(ids(ix.search({ query: { match: { title: 'kept' } } })), ['keep']);
      assert.equal(ix.search({ query: { match: { title: 'uncommitted' } } }).total, 0);
    };
    expectCommitted(index);
    // A crash right after the rollback must not replay the discarded writes.
    const afterCrash = await Index.open(dir.crashCopy(), { refreshIntervalMs: 0 });
    expectCommitted(afterCrash);
    await afterCrash.close();
    await index.upsert([{ _id: 'later', title: 'written after the rollback' }]);
    await index.refresh();
    assert.equal(index.stats().docs, 3);
    await index.close();
  });

  it('refuses a second writer and names the holder', async () => {
    const path = await tempDir();
    const first = await Index.open(await LocalDirectory.open(path), { mapping, refreshIntervalMs: 0 });
    await assert.rejects(Index.open(await LocalDirectory.open(path), { mapping }), (e: unknown) => {
      assert.ok(e instanceof YarrowError);
      assert.equal(e.code, ErrorCode.lockHeld);
      assert.match(e.message, new RegExp(`pid ${process.pid}`));
      return true;
    });
    await first.close();
  });

  it('refuses an index of another format version and tells the user to re-index', async () => {
    const path = await tempDir();
    const index = await Index.open(await LocalDirectory.open(path), { mapping, refreshIntervalMs: 0 });
    await index.close();
    const manifest = JSON.parse(await readFile(join(path, 'index.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(path, 'index.json'), JSON.stringify({ ...manifest, formatVersion: 99 }));
    await assert.rejects(Index.open(await LocalDirectory.open(path)), (e: unknown) => {
      assert.ok(e instanceof YarrowError);
      assert.equal(e.code, ErrorCode.incompatibleFormat);
      assert.match(e.message, /re-index/);
      return true;
    });
  });

  it('detects a corrupted segment file', async () => {
    const path = await tempDir();
    const index = await Index.open(await LocalDirectory.open(path), { mapping, refreshIntervalMs: 0 });
    await index.upsert([{ _id: 'z', title: 'soon corrupted', body: 'x'.repeat(100) }]);
    const { files } = await index.commit();
    await index.close();
    const victim = join(path, files.find((f) => f.endsWith('.fdt'))!);
    const bytes = await readFile(victim);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    await writeFile(victim, bytes);
    await assert.rejects(Index.open(await LocalDirectory.open(path)), (e: unknown) => e instanceof YarrowError && e.code === ErrorCode.corruptIndex);
  });

  it('merges segments in the background without losing or duplicating documents', async () => {
    const dir = new MemoryDirectory();
    const index = await Index.open(dir, {
      mapping,
      refreshIntervalMs: 0,
      writer: { mergePolicy: { segmentsPerTier: 2, maxMergeAtOnce: 2, floorSegmentBytes: 1 << 20 } },
    });
    for (let b = 0; b < 12; b++) {
      await index.upsert(Array.from({ length: 20 }, (_, i) => ({ _id: `${(b * 20 + i) % 150}`, title: `doc number ${b}`, year: b })));
      await index.refresh();
    }
    await index.close();
    const reopened = await Index.open(dir, { refreshIntervalMs: 0, writer: { merges: false } });
    const stats = reopened.stats();
    assert.equal(stats.docs, 150);
    assert.ok(stats.segments < 12, `${stats.segments} segments`);
    const all = reopened.search({ query: { match_all: {} }, size: 1000 });
    assert.equal(new Set(ids(all)).size, 150);
    // The last write of each id wins.
    const latest = new Map<string, number>();
    for (let b = 0; b < 12; b++) for (let i = 0; i < 20; i++) latest.set(`${(b * 20 + i) % 150}`, b);
    for (const hit of all.hits) assert.equal(hit.year, latest.get(hit._id));
    await reopened.close();
  });

  it('opened write-only, replaces and deletes ids across segments and merges, and refuses to search', async () => {
    const path = await tempDir();
    const open = async (searchable: boolean): Promise<Index> =>
      Index.open(await LocalDirectory.open(path), {
        mapping,
        refreshIntervalMs: 0,
        searchable,
        writer: { mergePolicy: { segmentsPerTier: 2, maxMergeAtOnce: 2, floorSegmentBytes: 1 << 20 } },
      });
    const latest = new Map<string, number>();
    let writer = await open(false);
    for (let b = 0; b < 14; b++) {
      // Ids repeat inside a batch, across batches and across reopenings.
      const docs = Array.from({ length: 30 }, (_, i) => ({ _id: `${(b * 17 + i * 7) % 90}`, title: `doc number ${b}`, year: b * 100 + i }));
      for (const d of docs) latest.set(d._id, d.year);
      await writer.upsert(docs);
      if (b % 3 === 2) {
        const gone = [`${b}`, `${b + 40}`];
        await writer.delete(gone);
        for (const id of gone) latest.delete(id);
      }
      await writer.refresh();
      if (b === 6) {
        await writer.close();
        writer = await open(false);
      }
    }
    assert.throws(() => writer.search({ query: { match_all: {} } }), (error: unknown) => {
      assert.ok(error instanceof YarrowError);
      assert.equal(error.code, ErrorCode.indexClosed);
      assert.match(error.message, /write-only/);
      return true;
    });
    assert.equal(writer.stats().docs, latest.size);
    await writer.close();
    const reader = await open(true);
    const all = reader.search({ query: { match_all: {} }, size: 1000, fields: ['year'] });
    assert.equal(all.hits.length, latest.size, 'one hit per live id, no older copy left');
    assert.deepEqual(new Map(all.hits.map((h) => [h._id, h.year])), latest);
    assert.ok(reader.stats().segments < 14, `${reader.stats().segments} segments: merges ran`);
    await reader.close();
  });

  it('follows commits read-only: new segments, and deletes and replacements in segments it already has', async () => {
    const dir = new MemoryDirectory();
    const writer = await Index.open(dir, { mapping, refreshIntervalMs: 0, writer: { merges: false } });
    await writer.upsert([{ _id: 'a', title: 'alpha', year: 1 }, { _id: 'b', title: 'beta', year: 2 }, { _id: 'c', title: 'gamma', year: 3 }]);
    await writer.commit();
    const reader = await Index.open(dir, { readOnly: true });
    const all = (): Record<string, unknown> =>
      Object.fromEntries(reader.search({ query: { match_all: {} }, size: 100, fields: ['year'] }).hits.map((h) => [h._id, h.year]));
    assert.deepEqual(all(), { a: 1, b: 2, c: 3 });
    await writer.delete(['a']);
    await writer.upsert([{ _id: 'b', title: 'beta two', year: 20 }, { _id: 'd', title: 'delta', year: 4 }]);
    const { seq } = await writer.commit();
    assert.deepEqual(all(), { a: 1, b: 2, c: 3 }, 'nothing changes before reload');
    assert.equal(await reader.reload(), seq);
    assert.deepEqual(all(), { b: 20, c: 3, d: 4 });
    assert.equal(reader.search({ query: { match: { title: 'beta' } } }).total, 1);
    await writer.close();
    await reader.close();
  });

  it('rejects queries on unknown or unsearchable fields with the field named', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
    assert.throws(() => index.search({ query: { match: { nope: 'x' } } }), /field "nope" is not in the mapping/);
    assert.throws(() => index.search({ query: { match: { year: 'x' } } }), /field "year" is not searchable/);
    assert.throws(() => index.search({ query: { fuzzy_thing: {} } }), /unknown query type "fuzzy_thing"/);
    await index.close();
  });
});
