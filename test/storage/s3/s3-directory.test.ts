/** S3Directory on a real S3-compatible server (moto): the shared Directory contract and what only S3 has. */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { LockOwner } from '../../../src/engine/directory.js';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { Index } from '../../../src/engine/index.js';
import { createS3Client, S3Directory, S3ObjectStore } from '../../../src/storage/s3/index.js';
import type { S3DirectoryOptions } from '../../../src/storage/s3/index.js';
import { freshBucket, stopTestS3Server } from '../../helpers/s3-test-bucket.js';
import { describeDirectoryContract } from '../directory-contract.js';

after(stopTestS3Server);

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (data: Uint8Array): string => new TextDecoder().decode(data);
const me = (): LockOwner => ({ pid: process.pid, hostname: hostname(), since: new Date().toISOString() });
const isCode = (code: string) => (e: unknown) => e instanceof YarrowError && e.code === code;

interface Opened {
  dir: S3Directory;
  store: S3ObjectStore;
  cleanup: () => Promise<void>;
}

/** An S3Directory on `bucket/prefix` with its own fresh working directory. */
async function openOn(bucket: string, endpoint: string, options: Partial<S3DirectoryOptions> = {}, prefix = 'idx'): Promise<Opened> {
  const workPath = await mkdtemp(join(tmpdir(), 'yarrow-s3-'));
  const location = { bucket, prefix, endpoint };
  const store = new S3ObjectStore(createS3Client(location), location);
  const dir = await S3Directory.open(store, { workPath, ...options });
  return {
    dir,
    store,
    cleanup: async () => {
      dir.close();
      store.client.destroy();
      await rm(workPath, { recursive: true, force: true });
    },
  };
}

async function fresh(options: Partial<S3DirectoryOptions> = {}): Promise<Opened & { bucket: string; endpoint: string }> {
  const { bucket, endpoint } = await freshBucket();
  return { ...(await openOn(bucket, endpoint, options)), bucket, endpoint };
}

/** Polls `condition` every 20 ms until it holds or `ms` pass. */
async function eventually(condition: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeDirectoryContract('S3Directory', async () => {
  const opened = await fresh();
  return { dir: opened.dir, cleanup: opened.cleanup };
});

describe('S3Directory', () => {
  it('puts a file in the bucket only once it is synced, and keeps the write-ahead log local', async () => {
    const { dir, store, cleanup } = await fresh();
    try {
      await dir.writeFile('seg-000001.tdx', bytes('terms'));
      assert.deepEqual(await store.list(), []);
      await dir.sync(['seg-000001.tdx']);
      assert.deepEqual(await store.list(), ['seg-000001.tdx']);
      const wal = await dir.openAppender('wal-0000000001.log');
      await wal.append(bytes('record'));
      await wal.sync();
      await dir.sync(['wal-0000000001.log']);
      await wal.close();
      assert.deepEqual(await store.list(), ['seg-000001.tdx']);
      assert.ok((await dir.list()).includes('wal-0000000001.log'));
    } finally {
      await cleanup();
    }
  });

  it('uploads a large file as a multipart upload and reads ranges of it back', async () => {
    const { dir, store, bucket, endpoint, cleanup } = await fresh();
    const reader = await openOn(bucket, endpoint, { readOnly: true });
    try {
      const big = Uint8Array.from({ length: 20 * 1024 * 1024 + 17 }, (_, i) => (i * 31 + (i >> 10)) & 0xff);
      await dir.writeFile('seg-000002.pst', big);
      await dir.sync(['seg-000002.pst']);
      const requestsBefore = store.stats.requests;
      assert.equal((await store.head('seg-000002.pst'))?.size, big.length);
      assert.ok(store.stats.requests > requestsBefore);
      const back = await reader.dir.readRange('seg-000002.pst', 12_345_678, 1000);
      assert.deepEqual(back, big.subarray(12_345_678, 12_346_678));
      assert.equal(reader.store.stats.bytesDownloaded, big.length, 'downloaded whole into the cache once');
      await reader.dir.readRange('seg-000002.pst', 5, 10);
      assert.equal(reader.store.stats.bytesDownloaded, big.length, 'later ranges are read from the cache');
      const file = await reader.dir.openRandomAccess('seg-000002.pst');
      const at = new Uint8Array(4096);
      assert.equal(file.read(at, 20 * 1024 * 1024 - 100), 4096 - (4096 - 117));
      assert.deepEqual(at.subarray(0, 117), big.subarray(20 * 1024 * 1024 - 100));
      assert.equal(file.size, big.length);
      file.close();
      assert.equal(reader.store.stats.bytesDownloaded, big.length, 'positional reads use the cached copy');
    } finally {
      await reader.cleanup();
      await cleanup();
    }
  });

  it('reads an immutable file by position even when it is larger than the whole local cache', async () => {
    const { dir, bucket, endpoint, cleanup } = await fresh();
    const reader = await openOn(bucket, endpoint, { readOnly: true, cacheMaxBytes: 1024 * 1024 });
    try {
      const big = Uint8Array.from({ length: 9 * 1024 * 1024 + 5 }, (_, i) => (i * 7 + (i >> 12)) & 0xff);
      await dir.writeFile('seg-000003.0.vec', big);
      await dir.sync(['seg-000003.0.vec']);
      const file = await reader.dir.openRandomAccess('seg-000003.0.vec');
      assert.equal(reader.dir.cachedBytes, 0, 'too large to cache: only the open descriptor keeps it');
      for (const position of [0, 8 * 1024 * 1024 - 3, big.length - 10]) {
        const got = new Uint8Array(10);
        assert.equal(file.read(got, position), 10);
        assert.deepEqual(got, big.subarray(position, position + 10));
      }
      file.close();
    } finally {
      await reader.cleanup();
      await cleanup();
    }
  });

  it('publishes with rename and re-reads an unchanged manifest without downloading it again', async () => {
    const { dir, bucket, endpoint, cleanup } = await fresh();
    const reader = await openOn(bucket, endpoint, { readOnly: true });
    try {
      await dir.writeFile('index.json.tmp', bytes('{"seq":1}'));
      await dir.sync(['index.json.tmp']);
      await dir.rename('index.json.tmp', 'index.json');
      assert.equal(text(await reader.dir.readFile('index.json')), '{"seq":1}');
      const downloaded = reader.store.stats.bytesDownloaded;
      assert.equal(text(await reader.dir.readFile('index.json')), '{"seq":1}');
      assert.equal(reader.store.stats.bytesDownloaded, downloaded, 'a 304 moves no bytes');
      await dir.writeFile('index.json.tmp', bytes('{"seq":2}'));
      await dir.rename('index.json.tmp', 'index.json');
      assert.equal(text(await reader.dir.readFile('index.json')), '{"seq":2}');
    } finally {
      await reader.cleanup();
      await cleanup();
    }
  });

  it('keeps a deleted object in the bucket for the grace period, hidden from list and exists', async () => {
    const { dir, store, cleanup } = await fresh({ deleteGraceMs: 400 });
    try {
      await dir.writeFile('seg-000003.nrm', bytes('norms'));
      await dir.sync(['seg-000003.nrm']);
      await dir.delete('seg-000003.nrm');
      assert.equal(await dir.exists('seg-000003.nrm'), false);
      assert.deepEqual(await dir.list(), []);
      assert.notEqual(await store.head('seg-000003.nrm'), undefined, 'still there for readers of older manifests');
      await eventually(async () => (await store.head('seg-000003.nrm')) === undefined);
    } finally {
      await cleanup();
    }
  });

  it('cancels a pending deletion when the name is written again', async () => {
    const { dir, store, cleanup } = await fresh({ deleteGraceMs: 150 });
    try {
      await dir.writeFile('seg-000004.fdt', bytes('old'));
      await dir.sync(['seg-000004.fdt']);
      await dir.delete('seg-000004.fdt');
      await dir.writeFile('seg-000004.fdt', bytes('new'));
      await dir.sync(['seg-000004.fdt']);
      const deadline = Date.now() + 400;
      while (Date.now() < deadline) {
        assert.notEqual(await store.head('seg-000004.fdt'), undefined);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(text(await dir.readFile('seg-000004.fdt')), 'new');
    } finally {
      await cleanup();
    }
  });

  it('refuses a second writer on the same prefix and names the holder', async () => {
    const first = await fresh();
    const second = await openOn(first.bucket, first.endpoint);
    try {
      const holder = me();
      const lock = await first.dir.obtainLock('write.lock', holder);
      await assert.rejects(second.dir.obtainLock('write.lock', me()), (e: unknown) => {
        assert.ok(e instanceof YarrowError && e.code === ErrorCode.lockHeld);
        assert.deepEqual(e.details['holder'], holder);
        return true;
      });
      await lock.release();
      const again = await second.dir.obtainLock('write.lock', me());
      await again.release();
    } finally {
      await second.cleanup();
      await first.cleanup();
    }
  });

  it('takes over an expired lease, reporting the stale holder', async () => {
    const { dir, store, cleanup } = await fresh();
    try {
      const gone = { pid: 4242, hostname: 'crashed-host', since: '2020-01-01T00:00:00.000Z' };
      await store.put('write.lock', bytes(JSON.stringify({ ...gone, expiresAt: Date.now() - 1000 })));
      const stale: LockOwner[] = [];
      const lock = await dir.obtainLock('write.lock', me(), (s) => stale.push(s));
      assert.deepEqual(stale, [gone]);
      await lock.release();
    } finally {
      await cleanup();
    }
  });

  it('renews its lease, and once it is taken over refuses to publish or write anything', async () => {
    const lost: string[] = [];
    const { dir, store, cleanup } = await fresh({ lockTtlMs: 600, onLeaseLost: (reason) => lost.push(reason) });
    try {
      await dir.obtainLock('write.lock', me());
      const firstEtag = (await store.head('write.lock'))?.etag;
      await eventually(async () => (await store.head('write.lock'))?.etag !== firstEtag);
      await dir.writeFile('index.json.tmp', bytes('{"seq":9}'));
      // Another writer overwrites the lease (as if it had taken it over after a partition).
      await store.put('write.lock', bytes(JSON.stringify({ pid: 1, hostname: 'other', since: 'now', expiresAt: Date.now() + 60_000 })));
      await eventually(() => lost.length === 1);
      await assert.rejects(dir.rename('index.json.tmp', 'index.json'), isCode(ErrorCode.lockHeld));
      await assert.rejects(dir.writeFile('seg-000009.tdx', bytes('x')), isCode(ErrorCode.lockHeld));
      assert.equal(await store.head('index.json'), undefined, 'nothing was published');
    } finally {
      await cleanup();
    }
  });

  it('read-only: refuses every write and never touches the bucket', async () => {
    const { dir, store, cleanup } = await fresh({ readOnly: true });
    try {
      await assert.rejects(dir.writeFile('a', bytes('x')), isCode(ErrorCode.indexClosed));
      await assert.rejects(dir.delete('a'), isCode(ErrorCode.indexClosed));
      await assert.rejects(dir.openAppender('wal.log'), isCode(ErrorCode.indexClosed));
      await assert.rejects(dir.obtainLock('write.lock', me()), isCode(ErrorCode.indexClosed));
      assert.equal(store.stats.bytesUploaded, 0);
    } finally {
      await cleanup();
    }
  });

  it('bounds its cache, evicting the least recently used files and downloading them again on demand', async () => {
    const writer = await fresh();
    const reader = await openOn(writer.bucket, writer.endpoint, { readOnly: true, cacheMaxBytes: 2500 });
    try {
      for (const n of [1, 2, 3]) {
        await writer.dir.writeFile(`seg-00000${n}.pst`, new Uint8Array(1000).fill(n));
        await writer.dir.sync([`seg-00000${n}.pst`]);
      }
      await reader.dir.readFile('seg-000001.pst');
      await reader.dir.readFile('seg-000002.pst');
      await reader.dir.readFile('seg-000001.pst');
      assert.equal(reader.store.stats.bytesDownloaded, 2000);
      await reader.dir.readFile('seg-000003.pst');
      assert.ok(reader.dir.cachedBytes <= 2500);
      await reader.dir.readFile('seg-000001.pst');
      assert.equal(reader.store.stats.bytesDownloaded, 3000, 'seg 1 was used last, so seg 2 was evicted');
      const again = await reader.dir.readFile('seg-000002.pst');
      assert.equal(again[0], 2);
      assert.equal(reader.store.stats.bytesDownloaded, 4000);
    } finally {
      await reader.cleanup();
      await writer.cleanup();
    }
  });

  /**
   * A writer index on a fresh bucket and a read-only directory on the same prefix; `run` gets the
   * writer and a function that opens a follower index (closed afterwards with everything else).
   */
  async function writerAndFollower(name: string, mapping: unknown, run: (index: Index, follow: () => Promise<Index>) => Promise<void>): Promise<void> {
    const writer = await fresh();
    const reader = await openOn(writer.bucket, writer.endpoint, { readOnly: true });
    const index = await Index.open(writer.dir, { name, mapping, refreshIntervalMs: 0 });
    const followers: Index[] = [];
    try {
      await run(index, async () => {
        followers.push(await Index.open(reader.dir, { readOnly: true }));
        return followers[followers.length - 1];
      });
    } finally {
      for (const f of followers) await f.close();
      await index.close();
      await reader.cleanup();
      await writer.cleanup();
    }
  }

  it('carries an index: a writer commits and a read-only index on another directory follows it', async () => {
    const mapping = { fields: { _id: { type: 'id' }, title: { type: 'text' } } };
    await writerAndFollower('books', mapping, async (index, follow) => {
      await index.upsert([{ _id: 'a', title: 'the yarrow flower' }]);
      await index.commit();
      const follower = await follow();
      assert.equal(follower.search({ query: { match: { title: 'yarrow' } } }).total, 1);
      await index.upsert([{ _id: 'b', title: 'yarrow in the garden' }]);
      await index.commit();
      assert.equal(await follower.reload(), index.stats().seq);
      assert.equal(follower.search({ query: { match: { title: 'yarrow' } } }).total, 2);
    });
  });

  it('ships a segment\'s vectors and HNSW files: a read-only index on another directory answers knn', async () => {
    const mapping = { fields: { title: { type: 'text', search: { semantic: { dim: 3, distance: 'cosine' } } } } };
    await writerAndFollower('vectors', mapping, async (index, follow) => {
      await index.upsert([{ _id: 'x', title: { text: 'x axis', embedding: [1, 0, 0] } }, { _id: 'y', title: { text: 'y axis', embedding: [0, 1, 0] } }]);
      await index.commit();
      const follower = await follow();
      const hits = follower.search({ query: { knn: { field: 'title', query_vector: [0.1, 0.9, 0] } } }).hits;
      assert.deepEqual(hits.map((h) => h._id), ['y', 'x']);
    });
  });
});
