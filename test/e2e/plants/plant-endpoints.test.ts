import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MOVIES_CONFIG, Workspace } from '../cli/cli-harness.js';
import { ServerProcess } from '../api/server-harness.js';
import { call, errorMessage, PLANT_ENV, PLANTS_CONFIG, postPlant, SECOND_TOKEN } from './plant-harness.js';

const INT64_MAX = '9223372036854775807';
const INT64_MIN = '-9223372036854775808';

describe('plant store on yarrow api: every status', () => {
  let ws: Workspace;
  let server: ServerProcess;
  before(async () => {
    ws = await Workspace.create(PLANTS_CONFIG);
    server = await ServerProcess.start(ws, 'api', PLANT_ENV);
  });
  after(async () => {
    assert.equal(await server.stop(), 0);
    await ws.cleanup();
  });

  it('POST /plants answers 200 with the Plant, and GET sees it at once', async () => {
    const r = await postPlant(server, '{"id":1,"name":"rose","tag":"red"}');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { id: 1, name: 'rose', tag: 'red' });
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
    const g = await call(server, 'GET', '/plants/1');
    assert.equal(g.status, 200);
    assert.deepEqual(g.json, { id: 1, name: 'rose', tag: 'red' });
  });

  it('keeps int64 ids exact at both ends of the range (beyond 2^53)', async () => {
    for (const id of [INT64_MAX, INT64_MIN, '9007199254740993']) {
      const r = await postPlant(server, `{"id":${id},"name":"edge ${id}"}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.text, `{"id":${id},"name":"edge ${id}"}`);
      const g = await call(server, 'GET', `/plants/${id}`);
      assert.equal(g.text, `{"id":${id},"name":"edge ${id}"}`);
    }
    // 2^53 + 1 must not be confused with 2^53 (what JSON.parse would make of it).
    assert.equal((await call(server, 'GET', '/plants/9007199254740992')).status, 404);
  });

  it('replaces the plant when an id is posted again', async () => {
    assert.equal((await postPlant(server, '{"id":7,"name":"first","tag":"a"}')).status, 200);
    const r = await postPlant(server, '{"id":7,"name":"second"}');
    assert.equal(r.status, 200);
    assert.deepEqual((await call(server, 'GET', '/plants/7')).json, { id: 7, name: 'second' });
  });

  it('accepts an integer however JSON spells it (1e2, 3.0)', async () => {
    assert.deepEqual((await postPlant(server, '{"id":1e2,"name":"hundred"}')).json, { id: 100, name: 'hundred' });
    assert.deepEqual((await postPlant(server, '{"id":3.0,"name":"three"}')).json, { id: 3, name: 'three' });
  });

  it('answers 400 with a message naming the problem for every kind of invalid body', async () => {
    const cases: readonly (readonly [string, RegExp, string?])[] = [
      ['{"id":1,', /not valid JSON/],
      ['', /body is empty/],
      ['[]', /request body: expected object \(NewPlant\), got array/],
      ['"rose"', /expected object \(NewPlant\), got string/],
      ['{"name":"x"}', /^id: required field is missing \(expected integer \(int64\)/],
      ['{"id":1}', /^name: required field is missing \(expected string\)/],
      ['{"id":"1","name":"x"}', /^id: expected integer \(int64\) .*, got string "1"/],
      ['{"id":1.5,"name":"x"}', /^id: expected integer \(int64\) .*, got number 1.5 \(not an integer\)/],
      ['{"id":true,"name":"x"}', /^id: expected integer \(int64\).*, got boolean true/],
      ['{"id":null,"name":"x"}', /^id: expected integer \(int64\).*, got null/],
      [`{"id":9223372036854775808,"name":"x"}`, /^id: expected integer \(int64\) from -9223372036854775808 to 9223372036854775807, got number 9223372036854775808 \(out of range\)/],
      [`{"id":-9223372036854775809,"name":"x"}`, /out of range/],
      ['{"id":1e400,"name":"x"}', /out of range/],
      ['{"id":1,"name":2}', /^name: expected string, got number 2/],
      ['{"id":1,"name":""}', /^name: expected a string of at least 1 characters/],
      ['{"id":1,"name":"x","tag":["a"]}', /^tag: expected string, got array/],
      ['{"id":1,"name":"x","tags":"a"}', /^tags: unknown field \(NewPlant has id, name, tag\)/],
      ['{"id":1,"id":2,"name":"x"}', /not valid JSON: Duplicate key/],
      ['{"id":1,"name":"x"}', /^Content-Type must be application\/json, got text\/plain/, 'text/plain'],
      ['{"id":1,"name":"x"}', /^missing Content-Type/, ''],
    ];
    for (const [body, message, contentType] of cases) {
      const r = await postPlant(server, body, contentType === undefined ? {} : { contentType: contentType === '' ? null : contentType });
      assert.match(errorMessage(r, 400), message, `body ${body}`);
    }
    // Nothing of the rejected requests was stored.
    assert.equal((await call(server, 'GET', '/plants/2')).status, 404);
  });

  it('answers 401 with WWW-Authenticate: Bearer for a missing, malformed or unknown token', async () => {
    const variants: readonly (readonly [string | null, RegExp])[] = [
      [null, /missing bearer token/],
      ['Basic dXNlcjpwYXNz', /malformed Authorization header/],
      ['Bearer', /malformed Authorization header/],
      ['Bearer wrong-token', /unknown bearer token/],
      ['Bearer e2e-token-012345678', /unknown bearer token/],
    ];
    for (const [auth, message] of variants) {
      for (const [method, path, body] of [['POST', '/plants', '{"id":50,"name":"x"}'], ['GET', '/plants', undefined], ['GET', '/plants/1', undefined], ['DELETE', '/plants/1', undefined]] as const) {
        const r = await call(server, method, path, { auth, ...(body === undefined ? {} : { body }) });
        assert.match(errorMessage(r, 401), message, `${method} ${path} with ${String(auth)}`);
        assert.match(r.headers.get('www-authenticate') ?? '', /^Bearer realm="yarrow"/);
      }
    }
    // Authentication comes before validation, and nothing was written or deleted.
    assert.equal(errorMessage(await postPlant(server, 'not json', { auth: null }), 401), 'missing bearer token: send Authorization: Bearer <token>');
    assert.equal((await call(server, 'GET', '/plants/50')).status, 404);
    assert.equal((await call(server, 'GET', '/plants/1')).status, 200);
  });

  it('accepts every configured token, the scheme in any case', async () => {
    assert.equal((await postPlant(server, '{"id":60,"name":"x"}', { auth: `Bearer ${SECOND_TOKEN}` })).status, 200);
    assert.equal((await call(server, 'GET', '/plants/60', { auth: `bearer ${SECOND_TOKEN}` })).status, 200);
  });

  it('GET /plants lists plants in id order, at most limit, and refuses a bad limit with 400', async () => {
    const all = await call(server, 'GET', '/plants?limit=1000');
    assert.equal(all.status, 200);
    const ids = [...all.text.matchAll(/"id":(-?\d+)/g)].map((m) => BigInt(m[1]));
    assert.ok(ids.length >= 5);
    assert.deepEqual(ids, [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    assert.equal(ids[0], BigInt(INT64_MIN));
    assert.equal(ids.at(-1), BigInt(INT64_MAX));
    const two = await call(server, 'GET', '/plants?limit=2');
    assert.equal((two.json as unknown[]).length, 2);
    for (const [limit, message] of [['0', /^limit: expected integer \(int32\) from 1 to 1000, got number 0 \(out of range\)/], ['1001', /out of range/], ['abc', /^limit: expected integer \(int32\), got string "abc"/], ['1.5', /^limit: expected integer \(int32\), got string "1.5"/]] as const) {
      assert.match(errorMessage(await call(server, 'GET', `/plants?limit=${limit}`), 400), message);
    }
    assert.match(errorMessage(await call(server, 'GET', '/plants?limit=1&limit=2'), 400), /^limit: expected one integer, got 2 values/);
  });

  it('GET and DELETE /plants/{id}: 404 for an unknown id, 400 for a bad one, 204 then 404 after a delete', async () => {
    assert.match(errorMessage(await call(server, 'GET', '/plants/424242'), 404), /no plant with id 424242/);
    assert.match(errorMessage(await call(server, 'DELETE', '/plants/424242'), 404), /no plant with id 424242/);
    assert.match(errorMessage(await call(server, 'GET', '/plants/abc'), 400), /^id: expected integer \(int64\), got string "abc"/);
    assert.match(errorMessage(await call(server, 'DELETE', '/plants/9223372036854775808'), 400), /out of range/);
    assert.equal((await postPlant(server, '{"id":99,"name":"doomed"}')).status, 200);
    const d = await call(server, 'DELETE', '/plants/99');
    assert.equal(d.status, 204);
    assert.equal(d.text, '');
    assert.equal((await call(server, 'GET', '/plants/99')).status, 404);
    assert.equal((await call(server, 'DELETE', '/plants/99')).status, 404);
  });

  it('answers 405 with Allow for other methods on plant paths, 404 below them', async () => {
    const put = await call(server, 'PUT', '/plants', { body: '{}' });
    assert.match(errorMessage(put, 405), /PUT is not allowed on \/plants/);
    assert.equal(put.headers.get('allow'), 'GET, HEAD, POST');
    const patch = await call(server, 'PATCH', '/plants/1', { body: '{}' });
    assert.equal(errorMessage(patch, 405), 'PATCH is not allowed on /plants/1 (allowed: GET, HEAD, DELETE)');
    assert.equal(patch.headers.get('allow'), 'GET, HEAD, DELETE');
    assert.equal((await call(server, 'GET', '/plants/1/leaves')).status, 404);
  });

  it('answers 413 for a body over 64 KiB', async () => {
    const r = await postPlant(server, JSON.stringify({ id: 5, name: 'x'.repeat(70 * 1024) }));
    assert.match(errorMessage(r, 413), /larger than the limit of 65536 bytes/);
  });

  it('publishes one OpenAPI 3.1 document: version 1.0.0, MIT, bearerAuth over the sample API only', async () => {
    interface Doc {
      openapi: string;
      info: { version: string; license: { name: string } };
      security: unknown;
      paths: Record<string, Record<string, { security?: unknown }>>;
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, { required?: string[] }> };
    }
    const doc = (await (await server.fetch('/openapi.json')).json()) as Doc;
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.0.0');
    assert.equal(doc.info.license.name, 'MIT');
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <one of api.auth.tokens>' });
    assert.deepEqual(doc.security, [{ bearerAuth: [] }]);
    assert.deepEqual(Object.keys(doc.paths['/plants']).sort(), ['get', 'post']);
    assert.equal(doc.paths['/plants'].post.security, undefined);
    assert.deepEqual(doc.paths['/_health'].get.security, []);
    assert.deepEqual(doc.components.schemas.Error.required, ['error', 'message']);
    // The exact int64 bounds survive serialisation.
    assert.match(await (await server.fetch('/openapi.json')).text(), /"maximum":9223372036854775807/);
    // The service's endpoints stay open.
    assert.equal((await server.fetch('/_health')).status, 200);
  });
});

describe('plant store: other modes and configs', () => {
  it('refuses every plant request with 401 when no token is configured', { timeout: 60_000 }, async () => {
    const ws = await Workspace.create(MOVIES_CONFIG);
    try {
      const server = await ServerProcess.start(ws, 'api');
      try {
        assert.match(server.log, /no API token is configured \(api\.auth\)/);
        for (const auth of [null, 'Bearer anything']) {
          const r = await postPlant(server, '{"id":1,"name":"x"}', { auth });
          assert.equal(r.status, 401);
          assert.match(r.headers.get('www-authenticate') ?? '', /^Bearer/);
        }
        assert.match(errorMessage(await call(server, 'GET', '/plants', { auth: 'Bearer anything' }), 401), /none is configured/);
      } finally {
        assert.equal(await server.stop(), 0);
      }
    } finally {
      await ws.cleanup();
    }
  });

  it('is served by standalone too, and not by search', { timeout: 60_000 }, async () => {
    const ws = await Workspace.create(PLANTS_CONFIG);
    try {
      const standalone = await ServerProcess.start(ws, 'standalone', PLANT_ENV);
      try {
        assert.equal((await postPlant(standalone, '{"id":3,"name":"fern"}')).status, 200);
        assert.deepEqual((await call(standalone, 'GET', '/plants')).json, [{ id: 3, name: 'fern' }]);
        // Index routes still work beside it.
        assert.equal((await standalone.fetch('/movies/_search?q=x')).status, 200);
      } finally {
        assert.equal(await standalone.stop(), 0);
      }
      const search = await ServerProcess.start(ws, 'search', PLANT_ENV);
      try {
        assert.equal((await call(search, 'GET', '/plants')).status, 404);
        const doc = (await (await search.fetch('/openapi.json')).json()) as { paths: Record<string, unknown> };
        assert.equal(doc.paths['/plants'], undefined);
      } finally {
        assert.equal(await search.stop(), 0);
      }
    } finally {
      await ws.cleanup();
    }
  });

  it('starts beside an index named plants, each in its own storage (issue 15)', { timeout: 60_000 }, async () => {
    const ws = await Workspace.create(PLANTS_CONFIG.replace('  movies:', '  plants:'));
    try {
      const server = await ServerProcess.start(ws, 'standalone', PLANT_ENV);
      try {
        const auth = { authorization: `Bearer ${SECOND_TOKEN}` };
        // Writes need the token (api.auth.tokens is configured); the index keeps its endpoints.
        assert.equal((await server.index('plants', '{"_id":"m1","title":"Fern Gully","year":1992}\n', '?refresh=true')).status, 401);
        assert.equal((await server.index('plants', '{"_id":"m1","title":"Fern Gully","year":1992}\n', '?refresh=true', auth)).status, 200);
        const hits = (await (await server.fetch('/plants/_search?q=fern')).json()) as { total: number };
        assert.equal(hits.total, 1);
        assert.equal((await server.fetch('/plants/_flush', { method: 'POST', headers: auth })).status, 200);
        // ...and the plant store keeps /plants and /plants/{id}.
        assert.equal((await postPlant(server, '{"id":7,"name":"fern"}')).status, 200);
        assert.deepEqual((await call(server, 'GET', '/plants')).json, [{ id: 7, name: 'fern' }]);
        assert.deepEqual((await call(server, 'GET', '/plants/7')).json, { id: 7, name: 'fern' });
      } finally {
        assert.equal(await server.stop(), 0);
      }
      const entries = await readdir(join(ws.dir, 'data'));
      assert.ok(entries.includes('plants') && entries.includes('_plants'), entries.join(', '));
      assert.deepEqual(await ws.ids('plants'), ['m1']);
    } finally {
      await ws.cleanup();
    }
  });
});
