import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CommitFollower } from '../../../src/engine/reader/commit-follower.js';
import { Index } from '../../../src/engine/search-index.js';
import { silentLogger } from '../../../src/engine/logger.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';

const mapping = { fields: { title: { type: 'text' } } };

describe('CommitFollower', () => {
  it('serves nothing before the first commit, then each new commit, and stays on the last good one while polls fail', async () => {
    const dir = new MemoryDirectory();
    const reloads: number[] = [];
    let failedPolls = 0;
    const follower = new CommitFollower('t', dir, { pollIntervalMs: 60_000, onReload: (seq) => reloads.push(seq), onPollFailed: () => { failedPolls++; } }, silentLogger);
    try {
      await follower.start();
      assert.equal(follower.index(), null);
      assert.equal(follower.health().status, 'degraded');

      const writer = await Index.open(dir, { mapping, refreshIntervalMs: 0 });
      await writer.upsert([{ _id: '1', title: 'first' }]);
      await writer.commit();
      await follower.check();
      assert.equal(follower.index()?.stats().docs, 1);
      // One reading: the commit's age is computed at each call, and two calls can straddle a millisecond.
      const health = follower.health();
      assert.deepEqual(health, { ...health, status: 'ok', seq: 1, consecutiveFailures: 0 });

      // A damaged manifest: the poll fails, the last good commit stays in service.
      await dir.writeFile('index.json', new TextEncoder().encode('{ not json'));
      await follower.check();
      assert.equal(follower.health().status, 'degraded');
      assert.equal(follower.health().consecutiveFailures, 1);
      assert.match(follower.health().lastError ?? '', /index\.json/);
      assert.equal(follower.index()?.search({ query: { match: { title: 'first' } } }).total, 1);
      assert.equal(failedPolls, 2, 'the poll before the first commit, and this one');

      await writer.upsert([{ _id: '2', title: 'second' }]);
      await writer.commit();
      await writer.close();
      await follower.check();
      assert.equal(follower.health().status, 'ok');
      assert.equal(follower.index()?.stats().docs, 2);
      assert.deepEqual(reloads, [1, 2]);
    } finally {
      await follower.close();
    }
  });
});
