/** A store on an S3 bucket that does not exist ends the writer modes with one line naming bucket and endpoint (issue 15). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errorLines, MOVIES_SCHEMA, movieLines, Workspace } from './cli-harness.js';
import { startMoto } from './moto-server.js';
import type { MotoServer } from './moto-server.js';
import { TEST_CREDENTIALS } from '../../helpers/s3-test-bucket.js';

describe('a store on a missing S3 bucket', () => {
  let moto: MotoServer;
  let ws: Workspace;
  before(async () => {
    moto = await startMoto();
    ws = await Workspace.create(`store:\n  s3:\n    bucket: no-such-store-bucket\n    prefix: p\n    endpoint: ${moto.endpoint}\n    workPath: ./work\n${MOVIES_SCHEMA}`);
    await ws.write('movies.jsonl', movieLines('m', 2));
  });
  after(async () => {
    await ws.cleanup();
    await moto.stop();
  });

  const expected = (): string =>
    `error: S3 bucket no-such-store-bucket does not exist at ${moto.endpoint} (store s3://no-such-store-bucket/p/movies/): create it or fix store.s3.bucket`;

  it('index file exits 1 with one line naming the bucket and the endpoint', async () => {
    const run = await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'movies.jsonl'], { ...TEST_CREDENTIALS });
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(errorLines(run), [expected()]);
    assert.doesNotMatch(run.stderr, /looks like a bug|\n\s+at /);
  });

  it('api exits 1 with one such line instead of serving', async () => {
    const run = await ws.run(['api', '-c', 'conf.yml', '-h', '127.0.0.1', '-p', '0'], { ...TEST_CREDENTIALS });
    assert.equal(run.code, 1, run.stderr);
    const lines = errorLines(run);
    assert.equal(lines.length, 1, run.stderr);
    // api opens the plant store (s3://.../p/_plants/) before the indexes: either names this bucket.
    assert.ok(lines[0].startsWith(`error: S3 bucket no-such-store-bucket does not exist at ${moto.endpoint} (store s3://no-such-store-bucket/p/`), lines[0]);
    assert.doesNotMatch(run.stderr, /looks like a bug|\n\s+at /);
  });
});
