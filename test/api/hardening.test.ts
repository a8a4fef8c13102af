/**
 * Issue 18: writes behind auth, strict input, and error bodies that leak nothing. Each case runs
 * against a real server on loopback.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ApiMetrics, BearerAuth, buildServer, FollowedIndex, serve, WritableIndex } from '../../src/api/index.js';
import type { AuthTokens, ServedIndex, ServerRole } from '../../src/api/index.js';
import { MAX_QUERY_DEPTH } from '../../src/api/request-input.js';
import { Index, silentLogger } from '../../src/engine/index.js';
import type { Logger } from '../../src/engine/index.js';
import { LocalDirectory, MemoryDirectory } from '../../src/storage/index.js';

const mapping = { fields: { _id: { type: 'id' }, title: { type: 'text' }, year: { type: 'int', filter: true } } };

interface Body {
  readonly error: (Readonly<Record<string, unknown>> & { readonly type: string; readonly reason: string }) | undefined;
  readonly [key: string]: unknown;
}

interface Running {
  readonly url: string;
  readonly index: Index;
  call(method: string, path: string, options?: { token?: string; body?: string | Buffer }): Promise<{ status: number; json: Body; headers: Headers }>;
}

async function withServer(options: { role?: ServerRole; tokens?: AuthTokens; indexes?: Map<string, ServedIndex> }, run: (server: Running) => Promise<void>): Promise<void> {
  const indexes = options.indexes ?? new Map<string, ServedIndex>();
  const metrics = new ApiMetrics(() => indexes.values());
  const index = await Index.open(new MemoryDirectory('memory:movies'), { name: 'movies', mapping, refreshIntervalMs: 0 });
  if (options.indexes === undefined) indexes.set('movies', new WritableIndex('movies', index, null));
  const { app } = buildServer({ role: options.role ?? 'standalone', indexes, log: silentLogger, version: 'test', metrics, auth: new BearerAuth(options.tokens ?? {}) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  try {
    await run({
      url,
      index,
      async call(method, path, { token, body } = {}) {
        const res = await fetch(`${url}${path}`, { method, headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { body }) });
        const text = await res.text();
        const json: Body = (res.headers.get('content-type') ?? '').startsWith('application/json') ? (JSON.parse(text) as Body) : { error: undefined };
        return { status: res.status, json, headers: res.headers };
      },
    });
  } finally {
    await app.close();
    await index.close();
  }
}

/** The error body of a response, which must have one. */
function errorOf(r: { readonly json: Body }): NonNullable<Body['error']> {
  assert.ok(r.json.error !== undefined, `an error body: ${JSON.stringify(r.json)}`);
  return r.json.error;
}

const DOC = '{"_id":"1","title":"red fox","year":1}\n';

describe('auth (issue 18)', () => {
  const tokens = { tokens: ['all-token'], writeTokens: ['write-token'], readTokens: ['read-token'] };

  it('refuses _index and _flush without a token (401) and accepts them with a write token (200)', async () => {
    await withServer({ tokens: { writeTokens: ['write-token'] } }, async (s) => {
      const denied = await s.call('POST', '/movies/_index', { body: DOC });
      assert.equal(denied.status, 401);
      assert.equal(errorOf(denied).type, 'unauthorized');
      assert.match(denied.headers.get('www-authenticate') ?? '', /^Bearer realm="yarrow"/);
      assert.equal((await s.call('POST', '/movies/_index', { body: DOC, token: 'wrong' })).status, 401);
      assert.equal((await s.call('POST', '/movies/_flush')).status, 401);
      assert.equal(s.index.stats().bufferedDocs + s.index.stats().docs, 0, 'nothing was written');
      assert.equal((await s.call('POST', '/movies/_index?refresh=true', { body: DOC, token: 'write-token' })).status, 200);
      assert.equal((await s.call('POST', '/movies/_flush', { token: 'write-token' })).status, 200);
      // No read tokens configured: reads stay open.
      assert.equal((await s.call('GET', '/movies/_search?q=fox')).json.total, 1);
    });
  });

  it('lets read tokens read but not write (403), and asks every read for a token once read tokens exist', async () => {
    await withServer({ tokens }, async (s) => {
      assert.equal((await s.call('POST', '/movies/_index', { body: DOC, token: 'read-token' })).status, 403);
      assert.equal((await s.call('POST', '/movies/_index?refresh=true', { body: DOC, token: 'all-token' })).status, 200);
      for (const [method, path, body] of [['GET', '/movies/_search?q=fox', undefined], ['POST', '/movies/_search', '{}'], ['GET', '/movies', undefined], ['GET', '/_indexes', undefined]] as const) {
        assert.equal((await s.call(method, path, { ...(body === undefined ? {} : { body }) })).status, 401, `${method} ${path} without a token`);
        for (const token of ['read-token', 'write-token', 'all-token']) assert.equal((await s.call(method, path, { token, ...(body === undefined ? {} : { body }) })).status, 200, `${method} ${path} with ${token}`);
      }
      // Probes stay open.
      assert.equal((await s.call('GET', '/_health')).status, 200);
      assert.equal((await s.call('GET', '/metrics')).status, 200);
      assert.equal((await s.call('GET', '/openapi.json')).status, 200);
    });
  });

  it('logs one warning at start when no token is configured, and none when one is', async () => {
    for (const [auth, expected] of [[new BearerAuth({}), 1], [new BearerAuth({ tokens: ['t'] }), 0]] as const) {
      const warnings: string[] = [];
      const log: Logger = { ...silentLogger, warn: (message: string) => { warnings.push(message); } };
      const index = await Index.open(new MemoryDirectory('memory:m'), { name: 'movies', mapping, refreshIntervalMs: 0 });
      const indexes = new Map<string, ServedIndex>();
      const metrics = new ApiMetrics(() => indexes.values());
      indexes.set('movies', new WritableIndex('movies', index, null));
      const stop = new AbortController();
      const started = new Promise<void>((resolve) => {
        const info = (message: string): void => { if (message.includes('listening on')) resolve(); };
        Object.assign(log, { info });
      });
      const done = serve({ role: 'api', host: '127.0.0.1', port: 0, indexes, metrics, log, version: 'test', auth, signal: stop.signal });
      await started;
      stop.abort();
      assert.equal(await done, 0);
      assert.equal(warnings.filter((w) => /no API token is configured/.test(w)).length, expected, warnings.join('\n'));
    }
  });
});

function nested(kind: 'bool' | 'dis_max' | 'filters', levels: number): string {
  let query = '{"match_all":{}}';
  if (kind === 'filters') {
    let filter = '{"term":{"year":1}}';
    for (let i = 0; i < levels; i++) filter = `{"and":[${filter}]}`;
    return `{"query":${query},"filters":{"include":${filter}}}`;
  }
  for (let i = 0; i < levels; i++) query = kind === 'bool' ? `{"bool":{"must":[${query}]}}` : `{"dis_max":{"queries":[${query}]}}`;
  return `{"query":${query}}`;
}

describe('strict input (issue 18)', () => {
  it('answers 400 to a repeated query parameter instead of 500', async () => {
    await withServer({}, async (s) => {
      const r = await s.call('GET', '/movies/_search?q=a&q=b');
      assert.equal(r.status, 400);
      assert.equal(errorOf(r).type, 'invalid_request');
      assert.match(errorOf(r).reason, /query parameter q is given 2 times/);
      assert.equal((await s.call('GET', '/movies/_search?size=1&size=2')).status, 400);
      assert.equal((await s.call('POST', '/movies/_index?refresh=true&refresh=false', { body: DOC })).status, 400);
      assert.equal((await s.call('POST', '/movies/_index?refresh=yes', { body: DOC })).status, 400);
    });
  });

  it('reads numbers strictly: size=0x10 is not 16', async () => {
    await withServer({}, async (s) => {
      for (const bad of ['0x10', '1e1', '+5', '5.0', '-1', '', ' 5', '0b1', '99999999999999999999']) {
        const r = await s.call('GET', `/movies/_search?size=${encodeURIComponent(bad)}`);
        assert.equal(r.status, 400, `size=${bad}`);
        assert.equal(errorOf(r).field, 'size');
      }
      assert.equal((await s.call('GET', '/movies/_search?size=16&from=0')).status, 200);
    });
  });

  it(`answers 400 past ${MAX_QUERY_DEPTH} levels of bool, dis_max or filter nesting, and searches at ${MAX_QUERY_DEPTH}`, async () => {
    await withServer({}, async (s) => {
      assert.equal((await s.call('POST', '/movies/_index?refresh=true', { body: DOC })).status, 200);
      for (const kind of ['bool', 'dis_max', 'filters'] as const) {
        const ok = await s.call('POST', '/movies/_search', { body: nested(kind, MAX_QUERY_DEPTH) });
        assert.equal(ok.status, 200, `${kind} at ${MAX_QUERY_DEPTH}: ${JSON.stringify(ok.json)}`);
        assert.equal(ok.json.total, 1);
        for (const levels of [MAX_QUERY_DEPTH + 1, 2000, 20_000]) {
          const r = await s.call('POST', '/movies/_search', { body: nested(kind, levels) });
          assert.equal(r.status, 400, `${kind} at ${levels}`);
          assert.equal(errorOf(r).type, 'invalid_request');
          assert.match(errorOf(r).reason, new RegExp(`deeper than ${MAX_QUERY_DEPTH} levels`));
        }
      }
    });
  });

  it('refuses invalid UTF-8 in an _index body with 400 naming the byte offset, and indexes nothing', async () => {
    await withServer({}, async (s) => {
      const body = Buffer.concat([Buffer.from(DOC), Buffer.from('{"_id":"2","title":"bad '), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]);
      const r = await s.call('POST', '/movies/_index?refresh=true', { body });
      assert.equal(r.status, 400);
      assert.equal(errorOf(r).type, 'invalid_document');
      const offset = DOC.length + '{"_id":"2","title":"bad '.length;
      assert.equal(errorOf(r).byteOffset, offset);
      assert.match(errorOf(r).reason, new RegExp(`byte offset ${offset}`));
      assert.equal(s.index.stats().bufferedDocs + s.index.stats().docs, 0);
      const search = await s.call('POST', '/movies/_search', { body: Buffer.from([0x7b, 0xc3, 0x28, 0x7d]) });
      assert.equal(search.status, 400);
      assert.match(errorOf(search).reason, /not valid UTF-8: .* at byte offset 1/);
    });
  });

  it('refuses an empty _index body with 400', async () => {
    await withServer({}, async (s) => {
      for (const body of [undefined, '', '  \n\n']) {
        const r = await s.call('POST', '/movies/_index', { ...(body === undefined ? {} : { body }) });
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal(errorOf(r).type, 'invalid_request');
        assert.match(errorOf(r).reason, /no documents/);
      }
    });
  });
});

describe('error bodies leak nothing (issue 18)', () => {
  it('names only the missing index in a 404', async () => {
    await withServer({}, async (s) => {
      const r = await s.call('GET', '/nope/_search?q=a');
      assert.equal(r.status, 404);
      assert.equal(errorOf(r).type, 'index_not_found');
      assert.match(errorOf(r).reason, /"nope"/);
      assert.doesNotMatch(JSON.stringify(r.json), /movies/);
    });
  });

  it('shows no absolute path in /_health of a search server', async () => {
    const root = await mkdtemp(join(tmpdir(), 'yarrow-health-'));
    try {
      const dir = await LocalDirectory.open(join(root, 'movies'));
      const indexes = new Map<string, ServedIndex>();
      const followed = new FollowedIndex('movies', dir, { watchPath: null, pollIntervalMs: 60_000 }, new ApiMetrics(() => indexes.values()), silentLogger);
      indexes.set('movies', followed);
      await followed.start();
      try {
        await withServer({ role: 'search', indexes }, async (s) => {
          const health = await s.call('GET', '/_health');
          assert.equal(health.json.status, 'degraded');
          const text = JSON.stringify(health.json);
          assert.match(text, /"lastError":".*index\.json/);
          assert.ok(!text.includes(root), `no absolute path in ${text}`);
          assert.ok(!text.includes(tmpdir()), `no absolute path in ${text}`);
        });
      } finally {
        await followed.close();
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
