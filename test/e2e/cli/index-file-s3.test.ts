/** `yarrow index file -u s3://bucket/prefix -e <endpoint>` against a real S3-compatible server (moto). */
import assert from 'node:assert/strict';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { errorLines, movieLines, Workspace } from './cli-harness.js';
import { startMoto } from './moto-server.js';
import type { MotoServer } from './moto-server.js';

const credentials = { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_REGION: 'us-east-1' };

describe('yarrow index file (s3)', () => {
  let moto: MotoServer;
  let ws: Workspace;

  before(async () => {
    moto = await startMoto();
    ws = await Workspace.create();
    const s3 = new S3Client({
      endpoint: moto.endpoint,
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' },
    });
    await s3.send(new CreateBucketCommand({ Bucket: 'corpus' }));
    const objects: Record<string, string | Uint8Array> = {
      'movies/2024/a.jsonl': movieLines('a', 2),
      'movies/2024/b.jsonl.gz': gzipSync(movieLines('b', 2)),
      'movies/2025/c.jsonl.zst': execFileSync('zstd', ['-q', '-c', '-'], { input: movieLines('c', 2) }),
      'movies/.hidden.jsonl': movieLines('h', 1),
      'other/d.jsonl': movieLines('d', 1),
      'bad/1.jsonl': movieLines('ok', 2),
      'bad/2.jsonl': '{"_id":"x","title":"t","year":"nope"}\n',
    };
    for (const [Key, Body] of Object.entries(objects)) await s3.send(new PutObjectCommand({ Bucket: 'corpus', Key, Body }));
    s3.destroy();
  });
  after(async () => {
    await ws.cleanup();
    await moto.stop();
  });

  const run = (url: string, dataDir: string) =>
    ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', url, '-e', moto.endpoint], { ...credentials, DATA_DIR: dataDir });

  it('indexes every object under the prefix in key order, decompressing by content', async () => {
    const r = await run('s3://corpus/movies/', 'd-all');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await ws.ids('movies', 'd-all'), ['a1', 'a2', 'b1', 'b2', 'c1', 'c2']);
    const order = ['a.jsonl', 'b.jsonl.gz', 'c.jsonl.zst'].map((k) => r.stderr.indexOf(k));
    assert.ok(order[0] < order[1] && order[1] < order[2], r.stderr);
    assert.match(r.stderr, /indexing done: 6 docs from 3 files/);
  });

  it('takes a prefix that is not a whole folder name', async () => {
    const r = await run('s3://corpus/movies/2025', 'd-prefix');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await ws.ids('movies', 'd-prefix'), ['c1', 'c2']);
  });

  it('keeps earlier objects committed when a later one is bad', async () => {
    const r = await run('s3://corpus/bad/', 'd-bad');
    assert.equal(r.code, 3);
    assert.deepEqual(errorLines(r), ['error: s3://corpus/bad/2.jsonl, line 1: field "year": expected int, got string ("nope")']);
    assert.deepEqual(await ws.ids('movies', 'd-bad'), ['ok1', 'ok2']);
  });

  it('exits 1 naming the bucket when it does not exist', async () => {
    const r = await run('s3://no-such-bucket/x', 'd-nobucket');
    assert.equal(r.code, 1);
    assert.equal(errorLines(r).length, 1);
    assert.match(errorLines(r)[0], /^error: s3:\/\/no-such-bucket\/x at http:\/\/127\.0\.0\.1:\d+: .*bucket does not exist.*\(HTTP 404\)$/);
  });

  it('exits 1 when the prefix holds no objects', async () => {
    const r = await run('s3://corpus/nothing-here/', 'd-empty');
    assert.equal(r.code, 1);
    assert.deepEqual(errorLines(r), ['error: s3://corpus/nothing-here/: no files to index']);
  });
});
