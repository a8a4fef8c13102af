import assert from 'node:assert/strict';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadThreadFiles } from '../../src/engine/commit/engine-worker.js';
import { LocalDirectory } from '../../src/storage/local-directory.js';
import { YarrowError } from '../../src/engine/errors.js';
import { temporaryDirectories } from '../helpers/temp-dirs.js';

const tempDir = temporaryDirectories('yarrow-thread-files-');

describe('a local directory\'s files on a background thread (thread-files.ts)', () => {
  it('load from the URL the directory gives, write files whole and read them back whole and by range', async () => {
    const path = await tempDir();
    const dir = await LocalDirectory.open(path);
    const files = await loadThreadFiles(dir.threadFiles());
    assert.ok(files !== null);
    const big = new Uint8Array(3 << 20).map((_, i) => (i * 31) & 0xff);
    files.write(new Map([['a.bin', big], ['b.bin', new Uint8Array([1, 2, 3])], ['empty.bin', new Uint8Array(0)]]));
    assert.deepEqual(new Uint8Array(await readFile(join(path, 'a.bin'))), big);
    assert.deepEqual(await dir.readFile('b.bin'), new Uint8Array([1, 2, 3]));
    assert.equal((await dir.readFile('empty.bin')).length, 0);
    assert.deepEqual(files.read('a.bin'), big);
    assert.deepEqual(files.read('a.bin', 1000, 17), big.subarray(1000, 1017));
    assert.deepEqual(files.read('b.bin', 3, 0), new Uint8Array(0));
    // Replacing a file truncates it.
    files.write([['a.bin', new Uint8Array([9])]]);
    assert.deepEqual(await dir.readFile('a.bin'), new Uint8Array([9]));
  });

  it('fail as the directory does: a missing file, a range past the end, a bad name', async () => {
    const dir = await LocalDirectory.open(await tempDir());
    const files = (await loadThreadFiles(dir.threadFiles()))!;
    files.write([['x.bin', new Uint8Array(10)]]);
    assert.throws(() => files.read('nope.bin'), (e: unknown) => e instanceof YarrowError && e.code === 'file_not_found');
    assert.throws(() => files.read('x.bin', 5, 6), (e: unknown) => e instanceof YarrowError && e.code === 'corrupt_index');
    assert.throws(() => { files.write([['../escape', new Uint8Array(1)]]); });
  });

  it('remove the files a failed write opened, and keep those of earlier calls', async () => {
    const path = await tempDir();
    const dir = await LocalDirectory.open(path);
    const files = (await loadThreadFiles(dir.threadFiles()))!;
    files.write([['kept.bin', new Uint8Array([1])]]);
    // The third name cannot be opened for writing: a directory is in its place.
    await mkdir(join(path, 'in-the-way'));
    assert.throws(() => { files.write([['p1.bin', new Uint8Array([1])], ['p2.bin', new Uint8Array([2])], ['in-the-way', new Uint8Array([3])]]); });
    assert.deepEqual((await readdir(path)).filter((f) => f.endsWith('.bin')).sort(), ['kept.bin']);
  });

  it('append to an existing file through a handle of their own, and never create one', async () => {
    const path = await tempDir();
    const dir = await LocalDirectory.open(path);
    const files = (await loadThreadFiles(dir.threadFiles()))!;
    const appender = await dir.openAppender('log.bin');
    const big = new Uint8Array(2 << 20).map((_, i) => (i * 7) & 0xff);
    // Issued without waiting: the appender's queue runs them in call order, the thread's write
    // (here a little later, as a reply from a thread comes) between the other two.
    await Promise.all([
      appender.append(new Uint8Array([1, 2])),
      appender.appendFrom!(big.length, async () => {
        await new Promise((resolve) => setImmediate(resolve));
        files.append('log.bin', big);
        return null;
      }),
      appender.append(new Uint8Array([3])),
    ]);
    assert.equal(appender.size, 3 + big.length, 'the appender counts what the thread appended');
    await appender.sync();
    await appender.close();
    const bytes = new Uint8Array(await readFile(join(path, 'log.bin')));
    assert.deepEqual([...bytes.subarray(0, 2)], [1, 2]);
    assert.deepEqual(bytes.subarray(2, 2 + big.length), big);
    assert.deepEqual([...bytes.subarray(2 + big.length)], [3]);
    assert.throws(() => { files.append('missing.bin', new Uint8Array(1)); }, (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT');
    assert.deepEqual((await readdir(path)).filter((f) => f === 'missing.bin'), []);
  });

  it('are not offered to a thread without a spec', async () => {
    assert.equal(await loadThreadFiles(undefined), null);
  });
});
