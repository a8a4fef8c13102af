import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { LockOwner } from '../../src/engine/directory.js';
import { ErrorCode, YarrowError } from '../../src/engine/errors.js';
import { LocalDirectory } from '../../src/storage/local-directory.js';
import { describeDirectoryContract } from './directory-contract.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const moduleUrl = new URL('../../src/storage/local-directory.ts', import.meta.url).href;

async function tempPath(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'yarrow-'));
}

/** Runs `body` with a fresh temporary directory, removed afterwards. */
async function withTemp(body: (path: string) => Promise<void>): Promise<void> {
  const path = await tempPath();
  try {
    await body(path);
  } finally {
    await rm(path, { recursive: true, force: true });
  }
}

function me(): LockOwner {
  return { pid: process.pid, hostname: hostname(), since: new Date().toISOString() };
}

function isLockHeldBy(pid: number): (error: unknown) => boolean {
  return (error) =>
    error instanceof YarrowError &&
    error.code === ErrorCode.lockHeld &&
    (error.details['holder'] as LockOwner).pid === pid &&
    error.message.includes(`pid ${pid} `);
}

/** The pid of a process that has exited (and been reaped), so nothing owns it right now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const pid = child.pid;
  await once(child, 'exit');
  assert.ok(pid !== undefined);
  return pid;
}

/** Starts a node process that takes `write.lock` in `path` and holds it until stdin closes. */
async function spawnLockHolder(path: string): Promise<ChildProcess> {
  const script = `
    import { hostname } from 'node:os';
    const { LocalDirectory } = await import(${JSON.stringify(moduleUrl)});
    const dir = await LocalDirectory.open(${JSON.stringify(path)});
    await dir.obtainLock('write.lock', { pid: process.pid, hostname: hostname(), since: new Date().toISOString() });
    process.stdout.write('locked\\n');
    process.stdin.resume();
    process.stdin.on('end', () => process.exit(0));
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('locked')) resolve();
    });
    child.on('exit', (code) => {
      reject(new Error(`lock holder exited with ${code}: ${stderr}`));
    });
  });
  return child;
}

describeDirectoryContract('LocalDirectory', async () => {
  const path = await tempPath();
  return { dir: await LocalDirectory.open(path), cleanup: () => rm(path, { recursive: true, force: true }) };
});

describe('LocalDirectory', () => {
  it('creates the directory and its parents, and describes itself by absolute path', async () => {
    await withTemp(async (root) => {
      const dir = await LocalDirectory.open(join(root, 'a', 'b', 'idx'));
      assert.ok(isAbsolute(dir.describe()));
      assert.equal(dir.describe(), join(root, 'a', 'b', 'idx'));
      await dir.writeFile('f', Uint8Array.of(1));
      assert.deepEqual(await readFile(join(root, 'a', 'b', 'idx', 'f')), Buffer.of(1));
    });
  });

  it('lists only regular files with valid names', async () => {
    await withTemp(async (root) => {
      const dir = await LocalDirectory.open(root);
      await mkdir(join(root, 'subdir'));
      await writeFile(join(root, 'not valid.txt'), 'x');
      await dir.writeFile('seg_1.post', Uint8Array.of(1));
      assert.deepEqual(await dir.list(), ['seg_1.post']);
      assert.equal(await dir.exists('subdir'), false);
    });
  });

  it('returns read bytes as a Uint8Array that owns its whole buffer', async () => {
    await withTemp(async (root) => {
      const dir = await LocalDirectory.open(root);
      await dir.writeFile('small', Uint8Array.of(1, 2, 3));
      const read = await dir.readFile('small');
      assert.equal(read.byteOffset, 0);
      assert.equal(read.buffer.byteLength, 3);
      assert.deepEqual([...read], [1, 2, 3]);
    });
  });

  describe('obtainLock', () => {
    it('refuses a second directory on the same path in this process', async () => {
      await withTemp(async (root) => {
        const lock = await (await LocalDirectory.open(root)).obtainLock('write.lock', me());
        const other = await LocalDirectory.open(root);
        await assert.rejects(other.obtainLock('write.lock', me()), isLockHeldBy(process.pid));
        await lock.release();
        await (await other.obtainLock('write.lock', me())).release();
      });
    });

    it('reports and takes over a lock whose holder pid is dead', async () => {
      await withTemp(async (root) => {
        const dead: LockOwner = { pid: await deadPid(), hostname: hostname(), since: '2024-05-01T10:00:00.000Z' };
        await writeFile(join(root, 'write.lock'), JSON.stringify(dead));
        const dir = await LocalDirectory.open(root);
        const reported: LockOwner[] = [];
        const owner = me();
        const lock = await dir.obtainLock('write.lock', owner, (stale) => reported.push(stale));
        assert.deepEqual(reported, [dead]);
        assert.deepEqual(JSON.parse(await readFile(join(root, 'write.lock'), 'utf8')), owner);
        await lock.release();
        assert.equal(await dir.exists('write.lock'), true, 'the lock file stays');
        assert.equal((JSON.parse(await readFile(join(root, 'write.lock'), 'utf8')) as { state: string }).state, 'released');
      });
    });

    it('treats a lock naming our pid that this process does not hold as stale (pid reused)', async () => {
      await withTemp(async (root) => {
        const earlier: LockOwner = { pid: process.pid, hostname: hostname(), since: '2024-05-01T10:00:00.000Z' };
        await writeFile(join(root, 'write.lock'), JSON.stringify(earlier));
        const reported: LockOwner[] = [];
        const lock = await (await LocalDirectory.open(root)).obtainLock('write.lock', me(), (s) => reported.push(s));
        assert.deepEqual(reported, [earlier]);
        await lock.release();
      });
    });

    it('treats an empty lock file (crash between create and write) as stale', async () => {
      await withTemp(async (root) => {
        await writeFile(join(root, 'write.lock'), '');
        const reported: LockOwner[] = [];
        const lock = await (await LocalDirectory.open(root)).obtainLock('write.lock', me(), (s) => reported.push(s));
        assert.equal(reported.length, 1);
        assert.equal(reported[0]?.pid, 0);
        assert.equal(reported[0]?.hostname, 'unknown');
        await lock.release();
      });
    });

    it('treats a holder on another host as live', async () => {
      await withTemp(async (root) => {
        const remote: LockOwner = { pid: await deadPid(), hostname: `${hostname()}-elsewhere`, since: '2024-05-01T10:00:00.000Z' };
        await writeFile(join(root, 'write.lock'), JSON.stringify(remote));
        const dir = await LocalDirectory.open(root);
        let reported = false;
        await assert.rejects(
          dir.obtainLock('write.lock', me(), () => (reported = true)),
          isLockHeldBy(remote.pid),
        );
        assert.equal(reported, false);
        assert.deepEqual(JSON.parse(await readFile(join(root, 'write.lock'), 'utf8')), remote);
      });
    });

    it('does not delete on release a lock file that another holder has replaced', async () => {
      await withTemp(async (root) => {
        const lock = await (await LocalDirectory.open(root)).obtainLock('write.lock', me());
        const usurper = JSON.stringify({ pid: 1, hostname: 'other', since: 'now' });
        await writeFile(join(root, 'write.lock'), usurper);
        await lock.release();
        assert.equal(await readFile(join(root, 'write.lock'), 'utf8'), usurper);
      });
    });

    it('refuses a lock held by a live child process, and calls it stale once the child is killed', async () => {
      await withTemp(async (root) => {
        const child = await spawnLockHolder(root);
        try {
          const pid = child.pid;
          assert.ok(pid !== undefined);
          const dir = await LocalDirectory.open(root);
          await assert.rejects(dir.obtainLock('write.lock', me()), isLockHeldBy(pid));

          const exited = once(child, 'exit');
          child.kill('SIGKILL');
          await exited;

          const reported: LockOwner[] = [];
          const lock = await dir.obtainLock('write.lock', me(), (stale) => reported.push(stale));
          assert.equal(reported.length, 1);
          assert.equal(reported[0]?.pid, pid);
          assert.equal(reported[0]?.hostname, hostname());
          await lock.release();
        } finally {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        }
      });
    });
  });
});
