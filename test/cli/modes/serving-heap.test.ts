/**
 * The server modes' V8 tuning (`serving-heap.ts`): after `compileOnWorkerThreads`, a worker thread
 * started later compiles its optimised code on its own thread, and the event loop's isolate still
 * compiles on V8's helpers. V8 says which in `--trace-opt`; the flag is process-wide, so the check
 * runs in a child process. After `markOnCollectingThreads`, a worker's heap is marked on the
 * worker's own thread (`--trace-concurrent-marking` lists no job of V8's helpers during its
 * incremental marking; they still join the atomic pause).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A function hot enough for TurboFan (on-stack replacement of its loop, then the function). */
const hot = (name: string): string =>
  `function ${name}(a) { let s = 0; for (let i = 0; i < a.length; i++) s += a[i] * 3; return s; }
   { const a = new Float64Array(1000); let t = 0; for (let i = 0; i < 20000; i++) t += ${name}(a); }`;

const child = `
import { Worker } from 'node:worker_threads';
import { compileOnWorkerThreads } from ${JSON.stringify(new URL('../../../src/cli/modes/serving-heap.ts', import.meta.url).href)};
if (process.argv[1] === 'tuned') compileOnWorkerThreads();
const worker = new Worker(${JSON.stringify(hot('workerHot'))}, { eval: true });
worker.on('exit', () => { ${hot('mainHot')} });
`;

/** The concurrency modes V8 reports for the TurboFan compilations of function `name`. */
function modes(trace: string, name: string): string[] {
  const re = new RegExp(`compiling method .*<JSFunction ${name} .*mode: ConcurrencyMode::(k\\w+)`, 'g');
  return [...trace.matchAll(re)].map((m) => m[1]);
}

describe('compileOnWorkerThreads', () => {
  it('makes a worker started after it compile on its own thread, and leaves the event loop compiling concurrently', async () => {
    const tuned = await run(process.execPath, ['--trace-opt', '--import', 'tsx', '--input-type=module', '-e', child, 'tuned'], { maxBuffer: 64 << 20 });
    const worker = modes(tuned.stdout, 'workerHot');
    assert.ok(worker.length > 0, 'the worker\'s function was optimised');
    assert.deepEqual(new Set(worker), new Set(['kSynchronous']));
    const main = modes(tuned.stdout, 'mainHot');
    assert.ok(main.length > 0, 'the event loop\'s function was optimised');
    assert.deepEqual(new Set(main), new Set(['kConcurrent']));
  });

  it('is what changes it: untuned, a worker compiles concurrently too', async () => {
    const plain = await run(process.execPath, ['--trace-opt', '--import', 'tsx', '--input-type=module', '-e', child, 'plain'], { maxBuffer: 64 << 20 });
    const worker = modes(plain.stdout, 'workerHot');
    assert.ok(worker.length > 0, 'the worker\'s function was optimised');
    assert.deepEqual(new Set(worker), new Set(['kConcurrent']));
  });
});

/** A worker that keeps ~100 MB of arrays (several incremental markings of its heap), started after the tuning. */
const marking = `
import { Worker } from 'node:worker_threads';
import { markOnCollectingThreads } from ${JSON.stringify(new URL('../../../src/cli/modes/serving-heap.ts', import.meta.url).href)};
if (process.argv[1] === 'tuned') markOnCollectingThreads();
const worker = new Worker('const keep = []; for (let i = 0; i < 300000; i++) keep.push(new Array(64).fill(i)); console.log("kept", keep.length);', { eval: true });
worker.on('exit', (code) => { if (code !== 0) process.exitCode = code; });
`;

/**
 * Marking tasks V8's helpers started while the incremental marking of the worker's heap ran (from
 * its `[IncrementalMarking] Start marking` to its `Stopping`), per --trace-concurrent-marking and
 * --trace-incremental-marking. Tuned, the helpers join only the atomic pause, after `Stopping`
 * (`--parallel-marking` stays on). The worker's isolate is the one that marked most often.
 */
function tasksDuringMarking(trace: string): number {
  const byIsolate = new Map<string, { marking: boolean; starts: number; tasks: number }>();
  for (const line of trace.split('\n')) {
    const isolate = /^\[\d+:(0x[0-9a-f]+)(?::\d+)?\]/.exec(line)?.[1];
    if (isolate === undefined) continue;
    const state = byIsolate.get(isolate) ?? { marking: false, starts: 0, tasks: 0 };
    byIsolate.set(isolate, state);
    if (line.includes('[IncrementalMarking] Start marking')) {
      state.marking = true;
      state.starts++;
    } else if (line.includes('[IncrementalMarking] Stopping')) state.marking = false;
    else if (state.marking && line.includes('Starting major concurrent marking task')) state.tasks++;
  }
  const worker = [...byIsolate.values()].sort((a, b) => b.starts - a.starts).at(0);
  assert.ok(worker !== undefined && worker.starts > 0, 'the worker\'s heap was marked incrementally');
  return worker.tasks;
}

describe('markOnCollectingThreads', () => {
  it('leaves V8\'s helpers out of the incremental marking of a worker started after it; untuned, they mark along', async () => {
    const flags = ['--trace-concurrent-marking', '--trace-incremental-marking', '--import', 'tsx', '--input-type=module', '-e', marking];
    const tuned = await run(process.execPath, [...flags, 'tuned'], { maxBuffer: 64 << 20 });
    assert.match(tuned.stdout, /kept 300000/);
    assert.equal(tasksDuringMarking(tuned.stdout), 0);
    const plain = await run(process.execPath, [...flags, 'plain'], { maxBuffer: 64 << 20 });
    assert.match(plain.stdout, /kept 300000/);
    assert.ok(tasksDuringMarking(plain.stdout) > 0, 'untuned, helpers marked while the worker ran');
  });
});
