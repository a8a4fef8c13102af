import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FaultInjectingDirectory } from '../../src/storage/fault-injecting-directory.js';
import { MemoryDirectory } from '../../src/storage/memory-directory.js';
import { describeDirectoryContract } from './directory-contract.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function isEio(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'EIO';
}

describeDirectoryContract('FaultInjectingDirectory with no faults armed', () =>
  Promise.resolve({ dir: new FaultInjectingDirectory(new MemoryDirectory()), cleanup: () => Promise.resolve() }),
);

describe('FaultInjectingDirectory', () => {
  it('fails the nth writeFile with EIO without reaching the inner directory', async () => {
    const inner = new MemoryDirectory();
    const dir = new FaultInjectingDirectory(inner);
    dir.failOn('writeFile', 2);
    await dir.writeFile('a', bytes('1'));
    await assert.rejects(dir.writeFile('b', bytes('2')), isEio);
    await dir.writeFile('c', bytes('3'));
    assert.deepEqual((await inner.list()).sort(), ['a', 'c']);
    assert.equal(dir.callCount('writeFile'), 3);
  });

  it('counts calls from the moment a fault is armed', async () => {
    const dir = new FaultInjectingDirectory(new MemoryDirectory());
    await dir.writeFile('a', bytes('1'));
    await dir.writeFile('b', bytes('2'));
    dir.failOn('delete', 1);
    dir.failOn('rename', 2);
    await assert.rejects(dir.delete('a'), isEio);
    await dir.delete('a');
    await dir.rename('b', 'c');
    await assert.rejects(dir.rename('c', 'd'), isEio);
    assert.deepEqual(await dir.list(), ['c']);
  });

  it('rejects with the given error when one is armed', async () => {
    const dir = new FaultInjectingDirectory(new MemoryDirectory());
    const boom = new Error('disk full');
    dir.failOn('sync', 1, boom);
    await dir.writeFile('a', bytes('1'));
    await assert.rejects(dir.sync(['a']), (error) => error === boom);
    await dir.sync(['a']);
  });

  it('fails appender appends and syncs, counting appender syncs as sync', async () => {
    const inner = new MemoryDirectory();
    const dir = new FaultInjectingDirectory(inner, { faults: [{ op: 'append', nth: 2 }] });
    const wal = await dir.openAppender('wal.log');
    await wal.append(bytes('a'));
    await assert.rejects(wal.append(bytes('b')), isEio);
    assert.equal(wal.size, 1);
    dir.failOn('sync', 1);
    await assert.rejects(wal.sync(), isEio);
    assert.equal(await inner.crashCopy().exists('wal.log'), false);
    await wal.sync();
    assert.equal(await inner.crashCopy().exists('wal.log'), true);
    await wal.close();
  });

  it('fails every call of an op under failEvery until the faults are cleared', async () => {
    const inner = new MemoryDirectory();
    const dir = new FaultInjectingDirectory(inner);
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    dir.failEvery('writeFile', full);
    for (const name of ['a', 'b', 'c']) await assert.rejects(dir.writeFile(name, bytes('1')), (error) => error === full);
    dir.clearFaults();
    await dir.writeFile('d', bytes('1'));
    assert.deepEqual(await inner.list(), ['d']);
  });

  it('forgets faults that are cleared', async () => {
    const dir = new FaultInjectingDirectory(new MemoryDirectory());
    dir.failOn('writeFile', 1);
    dir.clearFaults();
    await dir.writeFile('a', bytes('1'));
    assert.ok(await dir.exists('a'));
  });

  it('refuses an nth that is not a positive integer', () => {
    const dir = new FaultInjectingDirectory(new MemoryDirectory());
    assert.throws(() => {
      dir.failOn('sync', 0);
    }, RangeError);
    assert.throws(() => {
      dir.failOn('sync', 1.5);
    }, RangeError);
  });

  it('describes itself through the inner directory', () => {
    assert.equal(new FaultInjectingDirectory(new MemoryDirectory('m')).describe(), 'fault-injecting(m)');
  });
});
