/**
 * Issue 18, item 2: a writer stopped by an I/O failure refuses writes with `index_unavailable`,
 * keeps serving searches, and reopens itself — replaying its write-ahead log — once the cause is
 * gone, without losing an acknowledged document. The disk is a real local directory; the full disk
 * is the fault-injecting wrapper (test/e2e/api/disk-full.test.ts fills a real small volume).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, Index, YarrowError } from '../../../src/engine/index.js';
import { FaultInjectingDirectory, LocalDirectory } from '../../../src/storage/index.js';
import { temporaryDirectories } from '../../helpers/temp-dirs.js';

const mapping = { fields: { _id: { type: 'id' }, title: { type: 'text' } } };
const backoff = { firstMs: 5, maxMs: 40 };
const freshDisk = temporaryDirectories('yarrow-reopen-');

function diskFull(): Error {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
}

const ids = (index: Index): string[] => index.search({ query: { match_all: {} }, size: 1000 }).hits.map((h) => h._id).sort();

function isUnavailable(reason: RegExp): (error: unknown) => boolean {
  return (error) => error instanceof YarrowError && error.code === ErrorCode.indexUnavailable && reason.test(error.message);
}

/** Resolves once `done()` holds, checking on every timer turn; fails after `ms`. */
async function until(done: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('WriterReopener (issue 18)', () => {
  it('refuses writes while the disk is full, serves searches, and reopens once space is back', async () => {
    const path = await freshDisk();
    const dir = new FaultInjectingDirectory(await LocalDirectory.open(path));
    const index = await Index.open(dir, { mapping, refreshIntervalMs: 0, reopenBackoff: backoff });
    await index.upsert([{ _id: 'c1', title: 'committed' }, { _id: 'c2', title: 'committed' }]);
    await index.commit();
    await index.upsert([{ _id: 'a1', title: 'acknowledged only' }]);
    await index.refresh();

    dir.failEvery('append', diskFull());
    dir.failEvery('writeFile', diskFull());
    await assert.rejects(index.upsert([{ _id: 'lost', title: 'never acknowledged' }]), isUnavailable(/^disk full: no space left on device \(ENOSPC\) while appending to the write-ahead log/));
    assert.match(index.writerFailure()?.reason ?? '', /^disk full/);
    await assert.rejects(index.commit(), isUnavailable(/^disk full/));
    await assert.rejects(index.delete(['c1']), isUnavailable(/^disk full/));
    // Searches answer from the last good state meanwhile.
    assert.deepEqual(ids(index), ['a1', 'c1', 'c2']);
    // Reopen attempts fail while the disk stays full, and say why.
    await until(() => (index.writerFailure()?.reopenAttempts ?? 0) >= 2, 'two failed reopen attempts');
    assert.match(index.writerFailure()?.lastReopenError ?? '', /^disk full/);
    await assert.rejects(index.upsert([{ _id: 'lost2', title: 'refused' }]), isUnavailable(/^disk full/));

    dir.clearFaults();
    await until(() => index.writerFailure() === null, 'the writer to reopen');
    await index.upsert([{ _id: 'after', title: 'written after the reopen' }]);
    await index.refresh();
    assert.deepEqual(ids(index), ['a1', 'after', 'c1', 'c2']);
    await index.close();

    const reopened = await Index.open(await LocalDirectory.open(path), { refreshIntervalMs: 0 });
    assert.deepEqual(ids(reopened), ['a1', 'after', 'c1', 'c2']);
    await reopened.close();
  });

  it('acknowledges a batch whose flush fails, and replays it after the reopen', async () => {
    const path = await freshDisk();
    const dir = new FaultInjectingDirectory(await LocalDirectory.open(path));
    // A tiny buffer: every write flushes a segment right after its log record is durable.
    const index = await Index.open(dir, { mapping, refreshIntervalMs: 0, reopenBackoff: backoff, writer: { maxBufferBytes: 1 } });
    dir.failEvery('writeFile', diskFull());
    await index.upsert([{ _id: 'durable', title: 'logged, then the flush failed' }]);
    assert.match(index.writerFailure()?.reason ?? '', /^disk full: .* while writing a segment/);
    await assert.rejects(index.upsert([{ _id: 'refused', title: 'x' }]), isUnavailable(/while writing a segment/));
    dir.clearFaults();
    await until(() => index.writerFailure() === null, 'the writer to reopen');
    assert.deepEqual(ids(index), ['durable']);
    await index.close();
  });

  it('stops retrying on close and releases the lock for the next writer', async () => {
    const path = await freshDisk();
    const dir = new FaultInjectingDirectory(await LocalDirectory.open(path));
    const index = await Index.open(dir, { mapping, refreshIntervalMs: 0, reopenBackoff: backoff });
    await index.upsert([{ _id: 'kept', title: 'acknowledged' }]);
    dir.failEvery('sync', Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    await assert.rejects(index.upsert([{ _id: 'x', title: 'x' }]), isUnavailable(/^I\/O error \(EIO\) while syncing the write-ahead log/));
    await until(() => (index.writerFailure()?.reopenAttempts ?? 0) >= 1, 'a failed reopen attempt');
    await index.close();
    const next = await Index.open(await LocalDirectory.open(path), { refreshIntervalMs: 0 });
    assert.deepEqual(ids(next).filter((id) => id === 'kept'), ['kept']);
    await next.close();
  });
});
