import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { BearerAuth, buildServer } from '../../src/api/index.js';
import { openApiDocument } from '../../src/api/openapi.js';
import { silentLogger } from '../../src/engine/index.js';
import { mergeOpenApi, PLANT_DOCUMENT_URL, plantContract, plantPathMethods, PlantRepository, plantStoreModule } from '../../src/plants/index.js';
import { MemoryDirectory } from '../../src/storage/index.js';

type Operation = { responses: Record<string, unknown> };
const plantDoc = JSON.parse(readFileSync(PLANT_DOCUMENT_URL, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** [path template, method, operation] for every operation of the plant document. */
function operations(): [string, string, Operation][] {
  const out: [string, string, Operation][] = [];
  for (const [path, item] of Object.entries(plantDoc.paths)) {
    for (const [method, op] of Object.entries(item)) if (HTTP_METHODS.includes(method)) out.push([path, method.toUpperCase(), op as Operation]);
  }
  return out;
}

describe('the plant document and the routes agree', () => {
  it('registers exactly the documented operations (plus HEAD for GET)', async () => {
    const repository = await PlantRepository.open(new MemoryDirectory('memory:plants'), silentLogger);
    const { app } = buildServer({ role: 'api', indexes: new Map(), log: silentLogger, version: 'test', auth: new BearerAuth({ tokens: ['t'] }), modules: [plantStoreModule(repository)] });
    const routes: string[] = [];
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (route.url.startsWith('/plants')) for (const m of methods) if (m !== 'HEAD') routes.push(`${m} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    });
    try {
      await app.ready();
      assert.deepEqual(routes.sort(), operations().map(([path, method]) => `${method} ${path}`).sort());
      // The 405 table says the same.
      for (const [path, item] of Object.entries(plantDoc.paths)) {
        const documented = Object.keys(item).filter((k) => HTTP_METHODS.includes(k)).map((m) => m.toUpperCase());
        const allowed = plantPathMethods(path.replace('{id}', '1'))?.filter((m) => m !== 'HEAD');
        assert.deepEqual(allowed?.sort(), documented.sort(), path);
      }
    } finally {
      await app.close();
      await repository.close();
    }
  });

  it('answers only statuses the document lists for each operation', async () => {
    const repository = await PlantRepository.open(new MemoryDirectory('memory:plants'), silentLogger);
    const { app } = buildServer({ role: 'api', indexes: new Map(), log: silentLogger, version: 'test', bodyLimit: 1_000_000, auth: new BearerAuth({ tokens: ['t'] }), modules: [plantStoreModule(repository)] });
    const auth = { authorization: 'Bearer t' };
    const json = { ...auth, 'content-type': 'application/json' };
    const requests: readonly { method: 'GET' | 'POST' | 'DELETE'; url: string; op: string; headers: Record<string, string>; payload?: string }[] = [
      { method: 'POST', url: '/plants', op: 'POST /plants', headers: json, payload: '{"id":1,"name":"a"}' },
      { method: 'POST', url: '/plants', op: 'POST /plants', headers: json, payload: '{"id":"x"}' },
      { method: 'POST', url: '/plants', op: 'POST /plants', headers: {}, payload: '{}' },
      { method: 'POST', url: '/plants', op: 'POST /plants', headers: json, payload: `{"id":2,"name":"${'n'.repeat(70_000)}"}` },
      { method: 'GET', url: '/plants?limit=5', op: 'GET /plants', headers: auth },
      { method: 'GET', url: '/plants?limit=-1', op: 'GET /plants', headers: auth },
      { method: 'GET', url: '/plants', op: 'GET /plants', headers: {} },
      { method: 'GET', url: '/plants/1', op: 'GET /plants/{id}', headers: auth },
      { method: 'GET', url: '/plants/2', op: 'GET /plants/{id}', headers: auth },
      { method: 'GET', url: '/plants/x', op: 'GET /plants/{id}', headers: auth },
      { method: 'GET', url: '/plants/1', op: 'GET /plants/{id}', headers: {} },
      { method: 'DELETE', url: '/plants/1', op: 'DELETE /plants/{id}', headers: auth },
      { method: 'DELETE', url: '/plants/1', op: 'DELETE /plants/{id}', headers: auth },
      { method: 'DELETE', url: '/plants/x', op: 'DELETE /plants/{id}', headers: auth },
      { method: 'DELETE', url: '/plants/1', op: 'DELETE /plants/{id}', headers: {} },
    ];
    const seen = new Map<string, Set<string>>();
    try {
      for (const r of requests) {
        const res = await app.inject({ method: r.method, url: r.url, headers: r.headers, ...(r.payload === undefined ? {} : { payload: r.payload }) });
        const [method, path] = r.op.split(' ');
        const documented = Object.keys((plantDoc.paths[path][method.toLowerCase()] as Operation).responses);
        assert.ok(documented.includes(String(res.statusCode)), `${r.method} ${r.url.slice(0, 40)} answered ${res.statusCode}, documented: ${documented.join(', ')}`);
        if (!seen.has(r.op)) seen.set(r.op, new Set());
        seen.get(r.op)?.add(String(res.statusCode));
      }
      // ...and every documented status is one the server really returns.
      for (const [path, method, op] of operations()) assert.deepEqual([...(seen.get(`${method} ${path}`) ?? [])].sort(), Object.keys(op.responses).sort(), `${method} ${path}`);
    } finally {
      await app.close();
      await repository.close();
    }
  });
});

describe('mergeOpenApi', () => {
  it('keeps the plant document\'s info and security, and each service operation\'s own', () => {
    const service = openApiDocument('standalone', '9.9.9') as { paths: Record<string, Record<string, { security?: unknown }>> };
    const merged = JSON.parse(mergeOpenApi(service, plantContract().document)) as {
      info: Record<string, unknown>;
      security: unknown;
      paths: Record<string, Record<string, { security?: unknown }>>;
      components: { schemas: Record<string, unknown> };
    };
    assert.equal(merged.info.version, '1.0.0');
    assert.deepEqual(merged.info.license, { name: 'MIT', identifier: 'MIT' });
    assert.equal((merged.info['x-yarrow-service'] as { version: string }).version, '9.9.9');
    assert.deepEqual(merged.security, [{ bearerAuth: [] }]);
    for (const [path, item] of Object.entries(merged.paths)) {
      for (const [method, op] of Object.entries(item)) assert.deepEqual(op.security, path.startsWith('/plants') ? undefined : service.paths[path][method].security ?? [], path);
    }
    // Writes take a write token; health stays open.
    assert.deepEqual(merged.paths['/{index}/_index'].post.security, [{ bearer: [] }]);
    assert.deepEqual(merged.paths['/_health'].get.security, []);
    assert.ok('ServiceError' in merged.components.schemas && 'Error' in merged.components.schemas);
  });

  it('refuses documents that would shadow each other', () => {
    const service = { paths: { '/plants': { get: {} } }, components: {} };
    assert.throws(() => mergeOpenApi(service, plantContract().document), /path \/plants is in both/);
    assert.throws(() => mergeOpenApi({ paths: {}, components: { schemas: { Plant: {} } } }, plantContract().document), /components\.schemas\.Plant is in both/);
  });
});
