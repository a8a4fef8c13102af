import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiMetrics, buildServer, WritableIndex } from '../../src/api/index.js';
import type { ServedIndex, ServerRole } from '../../src/api/index.js';
import { httpStatuses } from '../../src/api/http-status.js';
import { ErrorCode, Index, silentLogger } from '../../src/engine/index.js';
import { MemoryDirectory } from '../../src/storage/index.js';

const mapping = { fields: { _id: { type: 'id' }, title: { type: 'text' }, year: { type: 'int', filter: true } } };

async function withServer(role: ServerRole, run: (app: ReturnType<typeof buildServer>['app']) => Promise<void>): Promise<void> {
  const indexes = new Map<string, ServedIndex>();
  const metrics = new ApiMetrics(() => indexes.values());
  const index = await Index.open(new MemoryDirectory('memory:movies'), { name: 'movies', mapping, refreshIntervalMs: 0 });
  indexes.set('movies', new WritableIndex('movies', index, null));
  const { app } = buildServer({ role, indexes, log: silentLogger, version: 'test', metrics, bodyLimit: 10_000 });
  try {
    await run(app);
  } finally {
    await app.close();
    await index.close();
  }
}

describe('buildServer', () => {
  it('indexes and searches in standalone, with every document visible after ?refresh=true', async () => {
    await withServer('standalone', async (app) => {
      const res = await app.inject({ method: 'POST', url: '/movies/_index?refresh=true', payload: '{"_id":"1","title":"red fox","year":1}{"_id":"2","title":"blue fox","year":2}' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json<{ docs: number }>().docs, 2);
      const s = await app.inject({ method: 'GET', url: '/movies/_search?q=fox' });
      assert.equal(s.json<{ total: number }>().total, 2);
    });
  });

  it('answers 405 to searches in api mode and to writes in search mode', async () => {
    await withServer('api', async (app) => {
      assert.equal((await app.inject({ method: 'GET', url: '/movies/_search' })).statusCode, 405);
      assert.equal((await app.inject({ method: 'POST', url: '/movies/_index', payload: '{"_id":"1"}' })).statusCode, 200);
    });
    await withServer('search', async (app) => {
      assert.equal((await app.inject({ method: 'POST', url: '/movies/_index', payload: '{"_id":"1"}' })).statusCode, 405);
      assert.equal((await app.inject({ method: 'POST', url: '/movies/_flush' })).statusCode, 405);
      assert.equal((await app.inject({ method: 'POST', url: '/movies/_search', payload: '{}' })).statusCode, 200);
    });
  });

  it('answers 404, not a 405 allowing the same method, to a GET of a /ui/ name that is no asset (found by schemathesis)', async () => {
    await withServer('standalone', async (app) => {
      const res = await app.inject({ method: 'GET', url: '/ui/%C2%84' });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json<{ error: { type: string } }>().error.type, 'not_found');
      assert.equal((await app.inject({ method: 'POST', url: '/ui/app.js' })).statusCode, 405);
    });
  });

  it('answers 413 with a JSON error for a body over the limit', async () => {
    await withServer('standalone', async (app) => {
      const res = await app.inject({ method: 'POST', url: '/movies/_index', payload: '{"_id":"x","year":1}\n'.repeat(1000) });
      assert.equal(res.statusCode, 413);
      assert.equal(res.json<{ error: { type: string } }>().error.type, 'payload_too_large');
    });
  });
});

describe('httpStatuses', () => {
  it('maps every engine error code to a status, and only storage damage or bugs to 500', () => {
    for (const code of Object.values(ErrorCode)) assert.ok(Object.hasOwn(httpStatuses, code), code);
    assert.equal(httpStatuses[ErrorCode.invalidDocument], 400);
    assert.equal(httpStatuses[ErrorCode.lockHeld], 503);
  });
});
