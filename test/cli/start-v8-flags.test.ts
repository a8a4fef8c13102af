import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { INDEXING_V8_FLAGS, START_V8_FLAGS_ENV, startV8Flags, startV8FlagsOf } from '../../src/cli/start-v8-flags.js';

describe('start-up V8 flags', () => {
  it('the modes that index get the heap flags; search, help and usage errors get none', () => {
    for (const argv of [['index', 'file', '-c', 'x'], ['index', 'kafka'], ['index', 'api'], ['api'], ['standalone', '-c', 'x']]) assert.deepEqual(startV8FlagsOf(argv), INDEXING_V8_FLAGS, argv.join(' '));
    for (const argv of [['search', '-c', 'x'], ['--help'], ['--version'], [], ['serch']]) assert.deepEqual(startV8FlagsOf(argv), [], argv.join(' '));
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
    const script = `
const v8 = require('node:v8'); const { Worker } = require('node:worker_threads');
v8.setFlagsFromString(${JSON.stringify(INDEXING_V8_FLAGS.join(' '))});
const w = new Worker("const v8 = require('node:v8'); let k = []; for (let i = 0; i < 2e6; i++) { k.push({ i }); if (k.length > 1e4) k = []; } require('node:worker_threads').parentPort.postMessage(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);", { eval: true });
w.once('message', (size) => { console.log(size); void w.terminate(); });`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    // Two semi-spaces of at most 4 MB (V8's default lets them grow to 16 MB each).
    assert.ok(Number(run.stdout) <= 8 * 1024 * 1024, run.stdout);
  });
});
