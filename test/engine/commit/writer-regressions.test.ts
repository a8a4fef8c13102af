/**
 * Regressions found by the engine review of issue #2 (write path): each test names the bug.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Index } from '../../../src/engine/search-index.js';
import { FaultInjectingDirectory } from '../../../src/storage/fault-injecting-directory.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';

const mapping = { fields: { title: { type: 'text' } } };
const ids = (index: Index): string[] => index.search({ query: { match_all: {} }, size: 100 }).hits.map((h) => h._id).sort();

describe('IndexWriter (review of issue #2)', () => {
  it('keeps acknowledged documents when a refresh fails, and refuses writes until reopened', async () => {
    const disk = new MemoryDirectory();
    const dir = new FaultInjectingDirectory(disk);
    const index = await Index.open(dir, { mapping, refreshIntervalMs: 0 });
    await index.upsert([{ _id: 'acked', title: 'acknowledged document' }]);
    dir.failOn('writeFile', 1);
    await assert.rejects(index.refresh(), /EIO/);
    await assert.rejects(index.upsert([{ _id: 'later', title: 'refused' }]), /EIO/);
    const reopened = await Index.open(disk.crashCopy(), { refreshIntervalMs: 0 });
    assert.deepEqual(ids(reopened), ['acked']);
    await reopened.close();
  });

  it('starts no merge once close() has begun, so a later writer never loses its segments', async () => {
    const dir = new MemoryDirectory();
    const opts = { mapping, refreshIntervalMs: 0, writer: { mergePolicy: { segmentsPerTier: 2, maxMergeAtOnce: 2 } } };
    const a = await Index.open(dir, opts);
    await a.upsert([{ _id: 'x1', title: 'one' }]);
    await a.refresh();
    await a.upsert([{ _id: 'x2', title: 'two' }]);
    await a.refresh();
    await a.upsert([{ _id: 'x3', title: 'three' }]);
    const pending = a.refresh();
    await a.close();
    await pending;
    const filesAfterClose = (await dir.list()).sort();
    const b = await Index.open(dir, opts);
    await b.upsert([{ _id: 'y', title: 'committed by the next writer' }]);
    await b.commit();
    await b.close();
    const c = await Index.open(dir, opts);
    await c.verify();
    assert.deepEqual(ids(c), ['x1', 'x2', 'x3', 'y']);
    await c.close();
    assert.ok(filesAfterClose.includes('index.json'));
  });

  it('records a checkpoint set while a commit is being written', async () => {
    for (let delay = 0; delay < 60; delay += 3) {
      const dir = new MemoryDirectory();
      const index = await Index.open(dir, { mapping, refreshIntervalMs: 0 });
      await index.upsert([{ _id: '1', title: 'x' }]);
      const committing = index.commit();
      for (let i = 0; i < delay; i++) await Promise.resolve();
      index.setCheckpoint('kafka:t', { p0: 42 });
      await committing;
      await index.close();
      const again = await Index.open(dir, { refreshIntervalMs: 0 });
      assert.deepEqual(again.checkpoints, { 'kafka:t': { p0: 42 } }, `checkpoint set after ${delay} microtasks`);
      await again.close();
    }
  });

  it('leaves at most one write-ahead log file behind however often an idle index is opened', async () => {
    const dir = new MemoryDirectory();
    const first = await Index.open(dir, { mapping, refreshIntervalMs: 0 });
    await first.upsert([{ _id: '1', title: 'x' }]);
    await first.close();
    for (let i = 0; i < 5; i++) await (await Index.open(dir, { refreshIntervalMs: 0 })).close();
    const wals = (await dir.list()).filter((f) => f.startsWith('wal-'));
    assert.ok(wals.length <= 1, `write-ahead logs left: ${wals.join(', ')}`);
  });
});
