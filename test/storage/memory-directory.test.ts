import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { describe, it } from 'node:test';
import type { LockOwner } from '../../src/engine/directory.js';
import { ErrorCode, YarrowError } from '../../src/engine/errors.js';
import { MemoryDirectory } from '../../src/storage/memory-directory.js';
import { describeDirectoryContract } from './directory-contract.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (data: Uint8Array): string => new TextDecoder().decode(data);

describeDirectoryContract('MemoryDirectory', () =>
  Promise.resolve({ dir: new MemoryDirectory(), cleanup: () => Promise.resolve() }),
);

describe('MemoryDirectory', () => {
  it('hands out copies, so mutating a read result changes nothing', async () => {
    const dir = new MemoryDirectory();
    await dir.writeFile('f', bytes('abc'));
    const first = await dir.readFile('f');
    first[0] = 0x7a;
    assert.equal(text(await dir.readFile('f')), 'abc');
  });

  it('describes itself by its label', () => {
    assert.equal(new MemoryDirectory('plants').describe(), 'plants');
  });

  describe('crashCopy', () => {
    it('keeps synced files and loses unsynced ones', async () => {
      const dir = new MemoryDirectory();
      await dir.writeFile('synced', bytes('kept'));
      await dir.sync(['synced']);
      await dir.writeFile('unsynced', bytes('lost'));
      const after = dir.crashCopy();
      assert.deepEqual(await after.list(), ['synced']);
      assert.equal(text(await after.readFile('synced')), 'kept');
      await assert.rejects(after.readFile('unsynced'), (e: unknown) => e instanceof YarrowError && e.code === ErrorCode.fileNotFound);
    });

    it('keeps the last synced content of a file rewritten after its sync', async () => {
      const dir = new MemoryDirectory();
      await dir.writeFile('f', bytes('v1'));
      await dir.sync(['f']);
      await dir.writeFile('f', bytes('v2'));
      assert.equal(text(await dir.crashCopy().readFile('f')), 'v1');
      await dir.sync(['f']);
      assert.equal(text(await dir.crashCopy().readFile('f')), 'v2');
    });

    it('keeps synced appends and loses the appends after the last sync', async () => {
      const dir = new MemoryDirectory();
      const wal = await dir.openAppender('wal.log');
      await wal.append(bytes('acked;'));
      await wal.sync();
      await wal.append(bytes('in-flight;'));
      assert.equal(text(await dir.readFile('wal.log')), 'acked;in-flight;');
      const after = dir.crashCopy();
      assert.equal(text(await after.readFile('wal.log')), 'acked;');
      const reopened = await after.openAppender('wal.log');
      assert.equal(reopened.size, 6);
    });

    it('loses an appended file that was never synced', async () => {
      const dir = new MemoryDirectory();
      const wal = await dir.openAppender('wal.log');
      await wal.append(bytes('x'));
      assert.equal(await dir.crashCopy().exists('wal.log'), false);
    });

    it('makes a rename durable with the content synced before it', async () => {
      const dir = new MemoryDirectory();
      await dir.writeFile('index.json', bytes('seq 1'));
      await dir.sync(['index.json']);
      await dir.writeFile('index.json.tmp', bytes('seq 2'));
      await dir.sync(['index.json.tmp']);
      await dir.rename('index.json.tmp', 'index.json');
      const after = dir.crashCopy();
      assert.deepEqual(await after.list(), ['index.json']);
      assert.equal(text(await after.readFile('index.json')), 'seq 2');
    });

    it('leaves an empty file when an unsynced file is renamed', async () => {
      const dir = new MemoryDirectory();
      await dir.writeFile('index.json', bytes('seq 1'));
      await dir.sync(['index.json']);
      await dir.writeFile('index.json.tmp', bytes('seq 2'));
      await dir.rename('index.json.tmp', 'index.json');
      const after = dir.crashCopy();
      assert.deepEqual(await after.list(), ['index.json']);
      assert.equal((await after.readFile('index.json')).length, 0);
    });

    it('makes deletes durable at once', async () => {
      const dir = new MemoryDirectory();
      await dir.writeFile('old.seg', bytes('x'));
      await dir.sync(['old.seg']);
      await dir.delete('old.seg');
      assert.equal(await dir.crashCopy().exists('old.seg'), false);
    });

    it('ignores syncs of an appender whose file was replaced', async () => {
      const dir = new MemoryDirectory();
      const wal = await dir.openAppender('wal.log');
      await dir.writeFile('wal.log', bytes('replacement'));
      await wal.append(bytes('orphan'));
      await wal.sync();
      assert.equal(text(await dir.readFile('wal.log')), 'replacement');
      assert.equal(await dir.crashCopy().exists('wal.log'), false);
    });

    it('drops held locks and shares nothing with the original', async () => {
      const dir = new MemoryDirectory();
      const holder: LockOwner = { pid: process.pid, hostname: hostname(), since: new Date().toISOString() };
      const lock = await dir.obtainLock('write.lock', holder);
      await dir.writeFile('f', bytes('a'));
      await dir.sync(['f']);
      const after = dir.crashCopy();
      const relock = await after.obtainLock('write.lock', holder);
      await after.writeFile('f', bytes('changed'));
      assert.equal(text(await dir.readFile('f')), 'a');
      await assert.rejects(dir.obtainLock('write.lock', holder), (e: unknown) => e instanceof YarrowError && e.code === ErrorCode.lockHeld);
      await relock.release();
      await lock.release();
    });
  });

  describe('obtainLock', () => {
    it('reports a lock file that no live holder owns as stale, then takes it', async () => {
      const dir = new MemoryDirectory();
      const dead: LockOwner = { pid: 424242, hostname: 'gone-host', since: '2020-01-01T00:00:00.000Z' };
      await dir.writeFile('write.lock', bytes(JSON.stringify(dead)));
      const reported: LockOwner[] = [];
      const me: LockOwner = { pid: process.pid, hostname: hostname(), since: new Date().toISOString() };
      const lock = await dir.obtainLock('write.lock', me, (stale) => reported.push(stale));
      assert.deepEqual(reported, [dead]);
      assert.deepEqual(JSON.parse(text(await dir.readFile('write.lock'))), me);
      await lock.release();
    });

    it('reports a garbled lock file as a stale unknown holder', async () => {
      const dir = new MemoryDirectory();
      await dir.writeFile('write.lock', new Uint8Array(0));
      const reported: LockOwner[] = [];
      const lock = await dir.obtainLock('write.lock', { pid: 1, hostname: 'h', since: 's' }, (stale) => reported.push(stale));
      assert.equal(reported.length, 1);
      assert.equal(reported[0]?.pid, 0);
      await lock.release();
    });
  });
});
