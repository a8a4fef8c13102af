/**
 * The distributed mode with real processes on a real S3-compatible server (moto, which enforces
 * `If-None-Match: *` and `If-Match`): one `api` writer and two `search` processes sharing a bucket.
 */
import assert from 'node:assert/strict';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { after, before, describe, it } from 'node:test';
import { MOVIES_SCHEMA, movieLines, Workspace } from '../cli/cli-harness.js';
import { eventually, ServerProcess } from '../api/server-harness.js';
import { freshBucket, stopTestS3Server, TEST_CREDENTIALS } from '../../helpers/s3-test-bucket.js';

const POLL_MS = 250;

const CONFIG = `store:
  s3:
    bucket: \${BUCKET}
    prefix: cluster
    endpoint: \${S3_ENDPOINT}
    workPath: \${WORK_DIR}
    pollIntervalMs: ${POLL_MS}
    lockTtlMs: 3000
${MOVIES_SCHEMA}`;

interface Health {
  status: string;
  indexes: Record<string, { status: string; seq: number | null; commitAgeSeconds: number | null }>;
}

/** Movie lines with long, varied titles, so a flush writes segment files worth uploading. */
function bulkyLines(prefix: string, n: number): string {
  let out = '';
  for (let i = 1; i <= n; i++) {
    const words = Array.from({ length: 40 }, (_, w) => `w${(i * 7919 + w * 104_729) % 50_000}`).join(' ');
    out += `${JSON.stringify({ _id: `${prefix}${i}`, title: `Movie ${prefix} ${i} ${words}`, genres: ['drama'], year: 1900 + (i % 120) })}\n`;
  }
  return out;
}

describe('distributed mode on S3: one writer, two searchers', () => {
  let ws: Workspace;
  let env: Record<string, string>;
  let s3: S3Client;
  let bucket: string;

  before(async () => {
    const created = await freshBucket();
    bucket = created.bucket;
    ws = await Workspace.create(CONFIG);
    env = { ...TEST_CREDENTIALS, BUCKET: bucket, S3_ENDPOINT: created.endpoint };
    s3 = new S3Client({ endpoint: created.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
  });
  after(async () => {
    s3.destroy();
    await ws.cleanup();
    await stopTestS3Server();
  });

  const start = (mode: 'api' | 'search', work: string): Promise<ServerProcess> => ServerProcess.start(ws, mode, { ...env, WORK_DIR: work }, [], 30_000);
  const total = async (server: ServerProcess): Promise<number> => {
    const r = await server.search('movies', { query: { match_all: {} }, size: 0 });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    return r.json.total;
  };
  const health = async (server: ServerProcess): Promise<Health> => (await (await server.fetch('/_health')).json()) as Health;
  const keys = async (): Promise<string[]> => {
    const out = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'cluster/movies/' }));
    return (out.Contents ?? []).map((o) => o.Key!.slice('cluster/movies/'.length));
  };

  it('replicates commits to both searchers, refuses a second writer, survives a searcher restart and a writer killed mid-upload', { timeout: 240_000 }, async (t) => {
    let writer = await start('api', 'work-writer');
    const searchers = [await start('search', 'work-s1'), await start('search', 'work-s2')];
    try {
      // Documents pushed to the writer become searchable on both searchers within the poll interval.
      assert.equal((await writer.index('movies', movieLines('a', 50))).status, 200);
      assert.equal((await writer.fetch('/movies/_flush', { method: 'POST' })).status, 200);
      const flushedAt = Date.now();
      await Promise.all(searchers.map((s) => eventually(async () => (await total(s)) === 50, 'both searchers to see the first commit', 10_000)));
      const visibleMs = Date.now() - flushedAt;
      assert.ok(visibleMs < POLL_MS + 2000, `visible after ${visibleMs} ms`);
      for (const s of searchers) {
        const h = await health(s);
        assert.equal(h.status, 'ok');
        assert.ok((h.indexes['movies'].seq ?? 0) >= 1);
        assert.ok(h.indexes['movies'].commitAgeSeconds !== null && h.indexes['movies'].commitAgeSeconds < 60);
        assert.match(s.log, /cold start: serving index movies/);
      }

      // A second writer on the same index is refused: the lease lives in the bucket.
      const second = await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', await ws.write('b.jsonl', movieLines('b', 3))], { ...env, WORK_DIR: 'work-second' });
      assert.equal(second.code, 4, second.stderr);
      assert.match(second.stderr, /locked by pid \d+ on /);

      // A searcher restarted mid-way resumes from the bucket (and its cache), including commits made while it was down.
      assert.equal(await searchers[1].stop('SIGTERM'), 0);
      assert.equal((await writer.index('movies', movieLines('c', 30))).status, 200);
      assert.equal((await writer.fetch('/movies/_flush', { method: 'POST' })).status, 200);
      searchers[1] = await start('search', 'work-s2');
      assert.equal(await total(searchers[1]), 80);
      await eventually(async () => (await total(searchers[0])) === 80, 'the other searcher to follow');

      // Kill -9 the writer while it uploads a commit: searchers keep serving the last good commit.
      const published = (await health(searchers[0])).indexes['movies'].seq;
      const before = new Set(await keys());
      assert.equal((await writer.index('movies', bulkyLines('d', 20_000))).status, 200);
      const flush = writer.fetch('/movies/_flush', { method: 'POST' }).catch(() => null);
      await eventually(async () => (await keys()).some((k) => k.startsWith('seg-') && !before.has(k)), 'the first new segment object', 60_000);
      await writer.stop('SIGKILL');
      await flush;
      const afterKill = Date.now();
      while (Date.now() - afterKill < 4 * POLL_MS) {
        for (const s of searchers) {
          const n = await total(s);
          assert.ok(n === 80 || n === 20_080, `a searcher served ${n} docs`);
        }
      }
      const sawPublish = (await health(searchers[0])).indexes['movies'].seq !== published;
      for (const s of searchers) assert.equal((await health(s)).status, 'ok');
      t.diagnostic(`first commit visible on both searchers after ${visibleMs} ms; writer killed ${sawPublish ? 'after' : 'before'} publishing`);

      // A new writer on the same working directory takes over the expired lease and replays its
      // write-ahead log: the acknowledged documents are all committed and reach both searchers.
      let attempts = 0;
      await eventually(async () => {
        attempts++;
        try {
          writer = await start('api', 'work-writer');
          return true;
        } catch {
          return false;
        }
      }, 'a new writer to take over the expired lease', 60_000);
      if (!sawPublish) assert.match(writer.log, /replayed 20000 operations|taking over a stale lock/);
      await Promise.all(searchers.map((s) => eventually(async () => (await total(s)) === 20_080, 'both searchers to see the replayed commit', 60_000)));
      assert.ok(attempts >= 1);
    } finally {
      await writer.stop('SIGTERM');
      for (const s of searchers) await s.stop('SIGTERM');
    }
  });
  it('standalone on S3: one process writes and searches, and its commits are in the bucket', { timeout: 60_000 }, async () => {
    // Runs after the cluster test, whose writer released the lease when it stopped.
    const standalone = await ServerProcess.start(ws, 'standalone', { ...env, WORK_DIR: 'work-standalone' }, [], 30_000);
    try {
      assert.equal((await standalone.index('movies', movieLines('s', 5), '?refresh=true')).status, 200);
      assert.equal(await total(standalone), 20_085);
      assert.equal((await standalone.fetch('/movies/_flush', { method: 'POST' })).status, 200);
      assert.ok((await keys()).includes('index.json'));
      const h = await health(standalone);
      assert.equal(h.status, 'ok');
    } finally {
      assert.equal(await standalone.stop('SIGTERM'), 0);
    }
  });

  it('index file into the S3 store: the bulk load is published and a searcher serves it', { timeout: 90_000 }, async () => {
    // Runs after the tests above, whose writers released the lease when they stopped.
    await ws.write('more.jsonl', movieLines('f', 300));
    const searcher = await start('search', 'work-s3-file');
    try {
      const before = await total(searcher);
      const run = await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'more.jsonl'], { ...env, WORK_DIR: 'work-file' });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /indexing done: 300 docs/);
      await eventually(async () => (await total(searcher)) === before + 300, 'the searcher serves the loaded file');
      const found = await searcher.search('movies', { query: { match: { title: { query: 'f 137', operator: 'and' } } }, size: 100 });
      assert.ok(found.json.hits.some((h: { _id: string }) => h._id === 'f137'), JSON.stringify(found.json));
    } finally {
      assert.equal(await searcher.stop('SIGTERM'), 0);
    }
  });
});
