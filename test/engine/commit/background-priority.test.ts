import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { lowerThreadPriority } from '../../../src/engine/commit/engine-worker.js';
import { Index } from '../../../src/engine/search-index.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';
import type { Directory } from '../../../src/engine/directory.js';

const linux = process.platform === 'linux';

/** The nice value of a thread, from its `stat` file (field 19; the command name may hold spaces). */
function niceOf(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** The scheduling policy of a thread (field 41 of its `stat`: 0 normal, 5 SCHED_IDLE). */
function policyOf(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38]);
}

/** Nice values of every thread of this process. */
function threadNices(): number[] {
  return eachThread(niceOf);
}

/** `read` of every thread's `stat` file in this process. */
function eachThread(read: (statPath: string) => number): number[] {
  const out: number[] = [];
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      out.push(read(`/proc/self/task/${tid}/stat`));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** Whether `chrt` (util-linux) runs here: the idle policy is set with it. */
const hasChrt = linux && spawnSync('chrt', ['--version'], { stdio: 'ignore' }).status === 0;

const mapping = { fields: { title: { type: 'text' } } };
const docs = (from: number, n: number): object[] => Array.from({ length: n }, (_, i) => ({ _id: `d${from + i}`, title: `river stone ${from + i}` }));

describe('background threads at a lower priority (WriterOptions.backgroundNice)', { skip: linux ? false : 'thread priorities are per thread on Linux only' }, () => {
  it('lowers the inversion thread alone: the thread answering requests keeps its priority', async () => {
    const before = niceOf('/proc/thread-self/stat');
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, writer: { inversionThreads: 1, backgroundNice: 7, merges: false } });
    // The thread has applied a batch, so it started and set its priority.
    await index.upsert(docs(0, 20));
    assert.equal(threadNices().filter((n) => n === 7).length, 1);
    assert.equal(niceOf('/proc/thread-self/stat'), before);
    await index.refresh();
    assert.equal(index.search({ query: { match: { title: 'river' } } }).total, 20);
    await index.close();
  });

  it('puts a thread at nice 19 under SCHED_IDLE too, and only that one', { skip: hasChrt ? false : 'no chrt' }, async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, writer: { inversionThreads: 1, backgroundNice: 19, merges: false } });
    await index.upsert(docs(0, 20));
    const idle = eachThread(policyOf).filter((p) => p === 5).length;
    assert.equal(idle, 1);
    assert.equal(policyOf('/proc/thread-self/stat'), 0);
    await index.refresh();
    assert.equal(index.search({ query: { match: { title: 'river' } } }).total, 20);
    await index.close();
  });

  it('runs a merge thread at the nice value while it merges', async () => {
    const seen: { name: string; nices: number[] }[] = [];
    const inner = new MemoryDirectory();
    // Looks at the threads whenever the merge thread asks for a file: it is running then.
    const readFile = (name: string): Promise<Uint8Array> => {
      seen.push({ name, nices: threadNices() });
      return inner.readFile(name);
    };
    const dir = new Proxy(inner, {
      get: (target, key) => {
        if (key === 'readFile') return readFile;
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    }) as Directory;
    const index = await Index.open(dir, { mapping, refreshIntervalMs: 0, writer: { mergeThread: true, backgroundNice: 9, merges: false } });
    for (let i = 0; i < 3; i++) {
      await index.upsert(docs(i * 10, 10));
      await index.refresh();
    }
    const sources = new Set(await inner.list());
    seen.length = 0;
    await index.forceMerge(1);
    // The merge thread reads the sources; this thread then opens the merged segment.
    const bySources = seen.filter((s) => sources.has(s.name));
    assert.ok(bySources.length > 0, 'the merge thread read its sources');
    assert.ok(bySources.every((s) => s.nices.filter((n) => n === 9).length === 1), JSON.stringify(bySources));
    assert.equal(index.stats().segments, 1);
    assert.equal(index.search({ query: { match: { title: 'stone' } } }).total, 30);
    await index.close();
  });

  it('leaves the priority alone with 0, and on platforms where it would lower the whole process', () => {
    assert.equal(lowerThreadPriority(0), false);
    assert.equal(lowerThreadPriority(undefined), false);
    assert.equal(lowerThreadPriority(5, 'darwin'), false);
    assert.equal(lowerThreadPriority(5, 'win32'), false);
  });
});
