import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { lowerHelperThreads } from '../../../src/cli/modes/serving-threads.js';

const linux = process.platform === 'linux';
const moduleUrl = new URL('../../../src/cli/modes/serving-threads.ts', import.meta.url).href;

/**
 * In a process of its own (lowering is for the whole process's helpers): the nice value of the
 * main thread and of every other thread after lowerHelperThreads, then of a worker started after.
 */
const script = `
import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { lowerHelperThreads } from ${JSON.stringify(moduleUrl)};
const nice = (tid) => { const s = readFileSync('/proc/self/task/' + tid + '/stat', 'utf8'); return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[16]); };
const others = () => readdirSync('/proc/self/task').filter((t) => Number(t) !== process.pid);
const lowered = await lowerHelperThreads(13);
const helpers = others();
const after = { lowered, main: nice(process.pid), helpers: helpers.map(nice) };
const worker = new Worker('import("node:worker_threads").then((m) => m.parentPort.postMessage(0)); setTimeout(() => {}, 60000)', { eval: true });
await new Promise((resolve) => worker.once('message', resolve));
const started = others().filter((t) => !helpers.includes(t));
console.log(JSON.stringify({ ...after, started: started.map(nice) }));
await worker.terminate();
`;

describe('lowerHelperThreads', () => {
  it('lowers every thread but the main one, and threads started afterwards keep the main thread\'s priority', { skip: linux ? false : 'thread priorities are per thread on Linux only' }, () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const seen = JSON.parse(out) as { lowered: number; main: number; helpers: number[]; started: number[] };
    // V8's platform workers and libuv's pool at least.
    assert.ok(seen.lowered >= 4, out);
    assert.equal(seen.helpers.length, seen.lowered, out);
    assert.ok(seen.helpers.every((n) => n === 13), out);
    assert.equal(seen.main, 0, out);
    assert.ok(seen.started.length >= 1 && seen.started.every((n) => n === 0), out);
  });

  it('does nothing where a thread id does not name one thread', async () => {
    assert.equal(await lowerHelperThreads(19, 'darwin'), 0);
  });
});
