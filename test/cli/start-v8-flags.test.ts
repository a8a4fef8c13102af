import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { INDEXING_V8_FLAGS, INDEXING_YOUNG_GENERATION_MB, START_V8_FLAGS_ENV, startV8Flags, startV8FlagsOf } from '../../src/cli/start-v8-flags.js';

/** The new space's size, in bytes, of a worker thread (started from `node -e`, after `setup`) that allocated a few million short-lived objects. */
function workerNewSpace(setup: string, workerOptions: string): number {
  const script = `
const v8 = require('node:v8'); const { Worker } = require('node:worker_threads');
${setup}
const w = new Worker("const v8 = require('node:v8'); let k = []; for (let i = 0; i < 2e6; i++) { k.push({ i }); if (k.length > 1e4) k = []; } require('node:worker_threads').parentPort.postMessage(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);", { eval: true, ${workerOptions} });
w.once('message', (size) => { console.log(size); void w.terminate(); });`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return Number(run.stdout);
}

describe('start-up V8 flags', () => {
  it('the modes that index get the heap flags, but index file (set later); search, help and usage errors get none', () => {
    for (const argv of [['index', 'kafka'], ['index', 'api'], ['api'], ['standalone', '-c', 'x']]) assert.deepEqual(startV8FlagsOf(argv), INDEXING_V8_FLAGS, argv.join(' '));
    for (const argv of [['index', 'file', '-c', 'x'], ['search', '-c', 'x'], ['--help'], ['--version'], [], ['serch']]) assert.deepEqual(startV8FlagsOf(argv), [], argv.join(' '));
  });

  it('the flags the entry set are read back from the environment', () => {
    const before = process.env[START_V8_FLAGS_ENV];
    try {
      Reflect.deleteProperty(process.env, START_V8_FLAGS_ENV);
      assert.deepEqual(startV8Flags(), []);
      process.env[START_V8_FLAGS_ENV] = INDEXING_V8_FLAGS.join(' ');
      assert.deepEqual(startV8Flags(), INDEXING_V8_FLAGS);
    } finally {
      if (before === undefined) Reflect.deleteProperty(process.env, START_V8_FLAGS_ENV);
      else process.env[START_V8_FLAGS_ENV] = before;
    }
  });

  it('set at run time, they give the worker threads started later 4 MB semi-spaces', () => {
    // What the entry relies on: V8 reads --max-semi-space-size when an isolate is created.
    const size = workerNewSpace(`v8.setFlagsFromString(${JSON.stringify(INDEXING_V8_FLAGS.join(' '))});`, '');
    // Two semi-spaces of at most 4 MB (V8's default lets them grow to 16 MB each).
    assert.ok(size <= 8 * 1024 * 1024, String(size));
  });

  it('a worker given their young generation as a resource limit gets the same semi-spaces without the flag', () => {
    // What index file's bulk-load threads rely on (bulk-prestart.ts); the control shows the limit is what holds them.
    const limited = workerNewSpace('', `resourceLimits: { maxYoungGenerationSizeMb: ${String(INDEXING_YOUNG_GENERATION_MB)} }`);
    assert.ok(limited <= 8 * 1024 * 1024, String(limited));
    const unlimited = workerNewSpace('', '');
    assert.ok(unlimited > 8 * 1024 * 1024, String(unlimited));
  });
});
