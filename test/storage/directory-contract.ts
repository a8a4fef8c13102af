/**
 * The contract every {@link Directory} implementation must pass (Lucene's BaseDirectoryTestCase):
 * each implementation's test file calls {@link describeDirectoryContract} with a factory.
 */
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Directory, LockOwner } from '../../src/engine/directory.js';
import { ErrorCode, YarrowError } from '../../src/engine/errors.js';

/** What a contract factory returns: a fresh, empty directory and how to dispose of it. */
export interface DirectoryFixture {
  dir: Directory;
  cleanup: () => Promise<void>;
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (data: Uint8Array): string => new TextDecoder().decode(data);

function owner(pid: number = process.pid): LockOwner {
  return { pid, hostname: hostname(), since: new Date().toISOString() };
}

function isYarrowError(code: string): (error: unknown) => boolean {
  return (error) => error instanceof YarrowError && error.code === code;
}

/** Registers the shared contract tests for one Directory implementation. */
export function describeDirectoryContract(name: string, makeDirectory: () => Promise<DirectoryFixture>): void {
  describe(`${name} (Directory contract)`, () => {
    let fixture: DirectoryFixture;
    let dir: Directory;

    beforeEach(async () => {
      fixture = await makeDirectory();
      dir = fixture.dir;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('reads back what it wrote', async () => {
      const data = Uint8Array.from([0, 1, 2, 250, 255]);
      await dir.writeFile('a.bin', data);
      assert.deepEqual(await dir.readFile('a.bin'), data);
    });

    it('stores a copy, so mutating the written array changes nothing', async () => {
      const data = bytes('abc');
      await dir.writeFile('a.txt', data);
      data[0] = 0x7a;
      assert.equal(text(await dir.readFile('a.txt')), 'abc');
    });

    it('lists the files it holds', async () => {
      assert.deepEqual(await dir.list(), []);
      await dir.writeFile('one', bytes('1'));
      await dir.writeFile('two.seg', bytes('2'));
      assert.deepEqual((await dir.list()).sort(), ['one', 'two.seg']);
    });

    it('tells whether a file exists', async () => {
      assert.equal(await dir.exists('x'), false);
      await dir.writeFile('x', bytes(''));
      assert.equal(await dir.exists('x'), true);
    });

    it('replaces a file it writes again', async () => {
      await dir.writeFile('f', bytes('a much longer first version'));
      await dir.writeFile('f', bytes('short'));
      assert.equal(text(await dir.readFile('f')), 'short');
    });

    it('deletes a file, and deleting a missing file succeeds', async () => {
      await dir.writeFile('gone', bytes('x'));
      await dir.delete('gone');
      assert.equal(await dir.exists('gone'), false);
      assert.deepEqual(await dir.list(), []);
      await dir.delete('gone');
      await dir.delete('never-existed');
    });

    it('syncs written files', async () => {
      await dir.writeFile('s1', bytes('1'));
      await dir.writeFile('s2', bytes('2'));
      await dir.sync(['s1', 's2']);
      await dir.sync([]);
      assert.equal(text(await dir.readFile('s2')), '2');
    });

    it('rejects syncing a missing file with file_not_found', async () => {
      await assert.rejects(dir.sync(['missing']), isYarrowError(ErrorCode.fileNotFound));
    });

    it('renames over an existing file, replacing it', async () => {
      await dir.writeFile('index.json', bytes('old'));
      await dir.writeFile('index.json.tmp', bytes('new'));
      await dir.sync(['index.json.tmp']);
      await dir.rename('index.json.tmp', 'index.json');
      assert.equal(text(await dir.readFile('index.json')), 'new');
      assert.equal(await dir.exists('index.json.tmp'), false);
      assert.deepEqual(await dir.list(), ['index.json']);
    });

    it('rejects renaming a missing file with file_not_found', async () => {
      await assert.rejects(dir.rename('missing', 'other'), isYarrowError(ErrorCode.fileNotFound));
    });

    it('rejects reading a missing file with file_not_found naming it', async () => {
      await assert.rejects(dir.readFile('nope.seg'), (error: unknown) => {
        assert.ok(error instanceof YarrowError);
        assert.equal(error.code, ErrorCode.fileNotFound);
        assert.match(error.message, /nope\.seg/);
        return true;
      });
    });

    it('reads byte ranges of a file, including empty and final ranges', async () => {
      const data = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) % 251);
      await dir.writeFile('r.bin', data);
      assert.deepEqual(await dir.readRange('r.bin', 0, 10), data.subarray(0, 10));
      assert.deepEqual(await dir.readRange('r.bin', 123, 400), data.subarray(123, 523));
      assert.deepEqual(await dir.readRange('r.bin', 990, 10), data.subarray(990));
      assert.deepEqual(await dir.readRange('r.bin', 1000, 0), new Uint8Array(0));
    });

    it('rejects a range past the end with corrupt_index and a missing file with file_not_found', async () => {
      await dir.writeFile('r.bin', new Uint8Array(10));
      await assert.rejects(dir.readRange('r.bin', 5, 6), isYarrowError(ErrorCode.corruptIndex));
      await assert.rejects(dir.readRange('none.bin', 0, 1), isYarrowError(ErrorCode.fileNotFound));
    });

    it('appends, counts the size, syncs and reads back the appended bytes', async () => {
      const appender = await dir.openAppender('wal-1.log');
      assert.equal(appender.size, 0);
      await appender.append(bytes('hello '));
      await appender.append(bytes('world'));
      assert.equal(appender.size, 11);
      await appender.sync();
      assert.equal(text(await dir.readFile('wal-1.log')), 'hello world');
      await appender.close();
      assert.ok(await dir.exists('wal-1.log'));
    });

    it('keeps appends in call order when they are not awaited one by one', async () => {
      const appender = await dir.openAppender('wal-2.log');
      const parts = Array.from({ length: 50 }, (_, i) => bytes(`${i},`));
      await Promise.all([...parts.map((part) => appender.append(part)), appender.sync()]);
      await appender.close();
      assert.equal(text(await dir.readFile('wal-2.log')), parts.map(text).join(''));
    });

    it('reopens an appender at the end of the existing file', async () => {
      const first = await dir.openAppender('wal.log');
      await first.append(bytes('abc'));
      await first.sync();
      await first.close();
      const second = await dir.openAppender('wal.log');
      assert.equal(second.size, 3);
      await second.append(bytes('def'));
      assert.equal(second.size, 6);
      await second.sync();
      await second.close();
      assert.equal(text(await dir.readFile('wal.log')), 'abcdef');
    });

    it('refuses a held lock, naming the holder', async () => {
      const holder = owner();
      const lock = await dir.obtainLock('write.lock', holder);
      assert.deepEqual(lock.owner, holder);
      await assert.rejects(dir.obtainLock('write.lock', owner()), (error: unknown) => {
        assert.ok(error instanceof YarrowError);
        assert.equal(error.code, ErrorCode.lockHeld);
        assert.deepEqual(error.details['holder'], holder);
        assert.match(error.message, new RegExp(`pid ${holder.pid} on ${holder.hostname} since ${holder.since}`));
        return true;
      });
      await lock.release();
    });

    it('shows a held lock as a file that stays after release, recording the release', async () => {
      const holder = owner();
      const lock = await dir.obtainLock('write.lock', holder);
      assert.ok((await dir.list()).includes('write.lock'));
      await lock.release();
      assert.equal(await dir.exists('write.lock'), true);
      const record = JSON.parse(text(await dir.readFile('write.lock'))) as Record<string, unknown>;
      assert.equal(record['state'], 'released');
      assert.equal(record['pid'], holder.pid);
    });

    it('lets the lock be taken again after release, and release is idempotent', async () => {
      const first = await dir.obtainLock('write.lock', owner());
      await first.release();
      await first.release();
      let staleReported = false;
      const second = await dir.obtainLock('write.lock', owner(), () => {
        staleReported = true;
      });
      assert.equal(staleReported, false);
      await first.release();
      await assert.rejects(dir.obtainLock('write.lock', owner()), isYarrowError(ErrorCode.lockHeld));
      await second.release();
    });

    it('holds different locks independently', async () => {
      const a = await dir.obtainLock('a.lock', owner());
      const b = await dir.obtainLock('b.lock', owner());
      await a.release();
      await b.release();
    });

    it('rejects file names that are not flat [A-Za-z0-9._-]', async () => {
      for (const bad of ['', '.', '..', 'a/b', '../escape', 'sp ace', 'é', 'a\\b', 'nul\0']) {
        await assert.rejects(dir.writeFile(bad, bytes('x')), RangeError, `writeFile ${JSON.stringify(bad)}`);
        await assert.rejects(dir.readFile(bad), RangeError, `readFile ${JSON.stringify(bad)}`);
      }
      await assert.rejects(dir.exists('a/b'), RangeError);
      await assert.rejects(dir.delete('a/b'), RangeError);
      await assert.rejects(dir.sync(['a/b']), RangeError);
      await assert.rejects(dir.openAppender('a/b'), RangeError);
      await assert.rejects(dir.obtainLock('a/b', owner()), RangeError);
      await dir.writeFile('ok', bytes('x'));
      await assert.rejects(dir.rename('ok', '../out'), RangeError);
      assert.deepEqual(await dir.list(), ['ok']);
    });

    it('round-trips an 8 MiB file', async () => {
      const big = new Uint8Array(8 * 1024 * 1024);
      let x = 0x9e3779b9;
      for (let i = 0; i < big.length; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        big[i] = x & 0xff;
      }
      await dir.writeFile('big.seg', big);
      await dir.sync(['big.seg']);
      const back = await dir.readFile('big.seg');
      assert.equal(back.length, big.length);
      assert.ok(Buffer.from(back).equals(Buffer.from(big)), '8 MiB content differs');
    });

    it('describes itself in a non-empty string', () => {
      assert.ok(dir.describe().length > 0);
    });
  });
}
