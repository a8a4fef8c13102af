import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Workspace } from '../cli/cli-harness.js';
import { ServerProcess } from '../api/server-harness.js';
import { call, PLANT_ENV, PLANTS_CONFIG, postPlant } from './plant-harness.js';

describe('plant store durability', () => {
  it('keeps every plant acknowledged with 200 (and every 204 delete) across a SIGKILL', { timeout: 60_000 }, async () => {
    const ws = await Workspace.create(PLANTS_CONFIG);
    try {
      const first = await ServerProcess.start(ws, 'api', PLANT_ENV);
      // Concurrent requests share WAL fsyncs; each 200 must still mean durable.
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => postPlant(first, `{"id":${i * 1000},"name":"plant ${i}","tag":"t${i % 3}"}`)));
      assert.deepEqual(answers.map((a) => a.status), answers.map(() => 200));
      assert.equal((await call(first, 'DELETE', '/plants/0')).status, 204);
      assert.equal((await postPlant(first, '{"id":9223372036854775807,"name":"last"}')).status, 200);
      // No commit and no refresh happened: the plants are only in the write-ahead log.
      assert.equal(await first.stop('SIGKILL'), null);

      const second = await ServerProcess.start(ws, 'api', PLANT_ENV);
      try {
        assert.match(second.log, /replayed 42 operations from the write-ahead log/);
        assert.equal((await call(second, 'GET', '/plants/0')).status, 404);
        assert.deepEqual((await call(second, 'GET', '/plants/39000')).json, { id: 39000, name: 'plant 39', tag: 't0' });
        assert.equal((await call(second, 'GET', '/plants/9223372036854775807')).text, '{"id":9223372036854775807,"name":"last"}');
        const list = await call(second, 'GET', '/plants?limit=1000');
        const ids = (list.json as { id: number }[]).map((p) => p.id);
        assert.equal(ids.length, 40);
        assert.deepEqual(ids.slice(0, 39), Array.from({ length: 39 }, (_, i) => (i + 1) * 1000));
      } finally {
        assert.equal(await second.stop(), 0);
      }
    } finally {
      await ws.cleanup();
    }
  });

  it('keeps plants across a graceful restart, in standalone as in api', { timeout: 60_000 }, async () => {
    const ws = await Workspace.create(PLANTS_CONFIG);
    try {
      const first = await ServerProcess.start(ws, 'standalone', PLANT_ENV);
      assert.equal((await postPlant(first, '{"id":-12,"name":"moss"}')).status, 200);
      assert.equal(await first.stop('SIGTERM'), 0);
      const second = await ServerProcess.start(ws, 'api', PLANT_ENV);
      try {
        assert.deepEqual((await call(second, 'GET', '/plants')).json, [{ id: -12, name: 'moss' }]);
      } finally {
        assert.equal(await second.stop(), 0);
      }
    } finally {
      await ws.cleanup();
    }
  });

  it('keeps its index in api.plants.store, so two servers can share one store path', { timeout: 60_000 }, async () => {
    const shared = await Workspace.create(PLANTS_CONFIG);
    const other = await Workspace.create(`${PLANTS_CONFIG.replace('  movies:', '  books:')}  plants:
    store: { local: { path: ./own-plants } }
`);
    try {
      const env = { ...PLANT_ENV, DATA_DIR: `${shared.dir}/data` };
      const first = await ServerProcess.start(shared, 'api', env);
      try {
        const second = await ServerProcess.start(other, 'api', env);
        try {
          assert.equal((await postPlant(first, '{"id":1,"name":"fern"}')).status, 200);
          assert.equal((await postPlant(second, '{"id":2,"name":"ivy"}')).status, 200);
          assert.deepEqual((await call(first, 'GET', '/plants')).json, [{ id: 1, name: 'fern' }]);
          assert.deepEqual((await call(second, 'GET', '/plants')).json, [{ id: 2, name: 'ivy' }]);
          assert.match(second.log, /own-plants/);
        } finally {
          assert.equal(await second.stop(), 0);
        }
      } finally {
        assert.equal(await first.stop(), 0);
      }
    } finally {
      await shared.cleanup();
      await other.cleanup();
    }
  });
});
