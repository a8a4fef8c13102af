/**
 * Issue 13: two processes racing for the write lock must never both hold it, whatever the lock
 * file holds when they start (nothing, a released record, a dead holder's record, an empty file).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Interface } from 'node:readline';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const moduleUrl = new URL('../../src/storage/local-lock.ts', import.meta.url).href;
const TRIALS = 300;

/**
 * A process that, for each `try <path>` line, tries to take `<path>/write.lock`, answers
 * `held` or `refused <message>`, and on `release` releases what it holds.
 */
const CONTENDER = `
  import { hostname } from 'node:os';
  import { createInterface } from 'node:readline';
  const { obtainLocalLock } = await import(${JSON.stringify(moduleUrl)});
  let lock = null;
  for await (const line of createInterface({ input: process.stdin })) {
    const [cmd, path] = line.split(' ');
    if (cmd === 'try') {
      try {
        lock = await obtainLocalLock(path + '/write.lock', { pid: process.pid, hostname: hostname(), since: new Date().toISOString() });
        process.stdout.write('held\\n');
      } catch (e) {
        process.stdout.write('refused ' + e.code + '\\n');
      }
    } else if (cmd === 'release') {
      await lock?.release();
      lock = null;
      process.stdout.write('released\\n');
    }
  }
`;

interface Contender {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: AsyncIterator<string>;
  readonly input: Interface;
}

function startContender(): Contender {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CONTENDER], { cwd: repoRoot });
  const input = createInterface({ input: child.stdout });
  return { child, input, lines: input[Symbol.asyncIterator]() };
}

async function ask(c: Contender, line: string): Promise<string> {
  c.child.stdin.write(`${line}\n`);
  const next = await c.lines.next();
  if (next.done === true) throw new Error('contender exited');
  return next.value;
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

describe('obtainLocalLock', () => {
  it(`never gives the lock to two processes racing for it (${TRIALS} trials, four starting states)`, async () => {
    const root = await mkdtemp(join(tmpdir(), 'yarrow-lock-race-'));
    const a = startContender();
    const b = startContender();
    const dead = await deadPid();
    const outcomes = { a: 0, b: 0 };
    try {
      for (let trial = 0; trial < TRIALS; trial++) {
        const dir = join(root, String(trial));
        await mkdir(dir);
        const lockPath = join(dir, 'write.lock');
        const since = '2024-05-01T10:00:00.000Z';
        switch (trial % 4) {
          case 1: await writeFile(lockPath, JSON.stringify({ state: 'released', pid: dead, hostname: hostname(), since, releasedAt: since })); break;
          case 2: await writeFile(lockPath, JSON.stringify({ pid: dead, hostname: hostname(), since })); break;
          case 3: await writeFile(lockPath, ''); break;
          default: break;
        }
        const [ra, rb] = await Promise.all([ask(a, `try ${dir}`), ask(b, `try ${dir}`)]);
        assert.ok(!(ra === 'held' && rb === 'held'), `trial ${trial}: both processes hold the lock`);
        assert.ok(ra === 'held' || rb === 'held', `trial ${trial}: neither holds the lock (${ra}; ${rb})`);
        for (const r of [ra, rb]) if (r !== 'held') assert.equal(r, 'refused lock_held');
        if (ra === 'held') outcomes.a++;
        else outcomes.b++;
        await Promise.all([ask(a, 'release'), ask(b, 'release')]);
        const left = (await readdir(dir)).filter((n) => n !== 'write.lock');
        assert.deepEqual(left, [], `trial ${trial}: claim or temp files left behind`);
      }
    } finally {
      for (const c of [a, b]) {
        c.child.stdin.end();
        c.input.close();
      }
      await Promise.all([once(a.child, 'exit'), once(b.child, 'exit')]);
      await rm(root, { recursive: true, force: true });
    }
    assert.equal(outcomes.a + outcomes.b, TRIALS);
  });
});
