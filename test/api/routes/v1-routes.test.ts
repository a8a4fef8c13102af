/**
 * Nixiesearch 0.8's `/v1` routes and the legacy `_delete`, `_merge`, `_mapping`, `_stats` routes,
 * against a real server on loopback over a real index directory (issue 15).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BearerAuth } from '../../../src/api/index.js';
import type { ServerRole } from '../../../src/api/index.js';
import { REDACTED } from '../../../src/api/redact-secrets.js';
import { serveLoopbackIndex } from '../../helpers/loopback-index.js';
import type { LoopbackIndex } from '../../helpers/loopback-index.js';

const mapping = {
  fields: {
    title: { type: 'text' },
    genre: { type: 'text', search: false, filter: true, facet: true },
    year: { type: 'int', filter: true, sort: true, facet: true },
    meta_a: { type: 'text', search: false },
  },
};
const movies = Array.from({ length: 12 }, (_, i) => ({ _id: `m${i}`, title: `movie ${i} ${i % 2 === 0 ? 'even' : 'odd'}`, genre: i % 3 === 0 ? 'drama' : 'comedy', year: 2000 + i, meta_a: `a${i}` }));
const ndjson = (docs: readonly object[]): string => docs.map((d) => JSON.stringify(d)).join('\n');

async function startServer(role: ServerRole, options: { auth?: BearerAuth; corsOrigins?: string[]; config?: unknown } = {}): Promise<LoopbackIndex> {
  return serveLoopbackIndex('movies', { mapping, searchable: role !== 'api', writer: { merges: false } }, {
    role,
    aliases: new Map([['films', 'movies']]),
    config: options.config ?? { api: { auth: { tokens: ['s3cret'] } } },
    ...(options.auth === undefined ? {} : { auth: options.auth }),
    ...(options.corsOrigins === undefined ? {} : { corsOrigins: options.corsOrigins }),
  });
}

async function call(server: LoopbackIndex, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }> {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...headers } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(`${server.base}${path}`, init);
  const text = await res.text();
  return { status: res.status, json: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>, headers: res.headers };
}

const errorOf = (json: Record<string, unknown>): { type: string; reason: string; field?: string } => json.error as { type: string; reason: string; field?: string };

describe('/v1 routes (standalone, a real server on loopback)', () => {
  let server: LoopbackIndex;
  before(async () => {
    server = await startServer('standalone');
  });
  after(async () => {
    await server.close();
  });

  it('pushes documents with 0.8\'s answer: status, docs and took in seconds; flush answers status and took', async () => {
    const pushed = await call(server, 'POST', '/v1/index/movies', ndjson(movies.slice(0, 8)));
    assert.equal(pushed.status, 200);
    assert.deepEqual(Object.keys(pushed.json).sort(), ['docs', 'status', 'took']);
    assert.equal(pushed.json.status, 'ok');
    assert.equal(pushed.json.docs, 8);
    assert.ok(typeof pushed.json.took === 'number' && pushed.json.took < 60, 'took in seconds');
    const viaAlias = await call(server, 'POST', '/v1/index/films', JSON.stringify(movies.slice(8)));
    assert.equal(viaAlias.json.docs, 4);
    const flushed = await call(server, 'POST', '/v1/index/movies/flush');
    assert.equal(flushed.status, 200);
    assert.deepEqual(Object.keys(flushed.json).sort(), ['status', 'took']);
    assert.equal(server.index.stats().docs, 12);
  });

  it('searches with 0.8\'s envelope: default fields _id and _score, took by phase in seconds, aggs, ts', async () => {
    const before = Date.now();
    const r = await call(server, 'POST', '/v1/index/movies/search', { query: { match: { title: 'even' } }, size: 3, aggs: { g: { term: { field: 'genre', size: 'all' } } } });
    assert.equal(r.status, 200);
    const hits = r.json.hits as Record<string, unknown>[];
    assert.equal(hits.length, 3);
    for (const h of hits) assert.deepEqual(Object.keys(h).sort(), ['_id', '_score']);
    assert.equal(typeof (r.json.took as { total: number }).total, 'number');
    assert.ok((r.json.ts as number) >= before && (r.json.ts as number) <= Date.now());
    assert.deepEqual((r.json.aggs as { g: { buckets: unknown[] } }).g.buckets, [{ term: 'comedy', count: 4 }, { term: 'drama', count: 2 }]);
    const empty = await call(server, 'POST', '/v1/index/films/search', '');
    assert.deepEqual(empty.json.aggs, {});
    assert.equal((empty.json.hits as unknown[]).length, 10);
  });

  it('returns the fields asked, wildcards included, sorts with order default and missing, filters with not lists', async () => {
    const r = await call(server, 'POST', '/v1/index/movies/search', {
      fields: ['title', 'meta_*'],
      sort: [{ year: { order: 'default', missing: 'last' } }],
      filters: { include: { not: [{ term: { genre: 'drama' } }] } },
      size: 2,
    });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.deepEqual(r.json.hits, [
      { _id: 'm1', _score: (r.json.hits as { _score: number }[])[0]._score, title: 'movie 1 odd', meta_a: 'a1', _sort: [2001, 'm1'] },
      { _id: 'm2', _score: (r.json.hits as { _score: number }[])[1]._score, title: 'movie 2 even', meta_a: 'a2', _sort: [2002, 'm2'] },
    ]);
  });

  it('refuses an unknown request key with a 400 naming it; an unknown index is a 404', async () => {
    const r = await call(server, 'POST', '/v1/index/movies/search', { query: { match_all: {} }, rag: { prompt: 'x' } });
    assert.equal(r.status, 400);
    assert.equal(errorOf(r.json).field, 'rag');
    assert.match(errorOf(r.json).reason, /^rag: unknown key/);
    const missing = await call(server, 'POST', '/v1/index/nope/search', {});
    assert.equal(missing.status, 404);
  });

  it('shows the mapping, the stats, and the index list with aliases', async () => {
    const m = await call(server, 'GET', '/v1/index/films');
    assert.equal(m.json.name, 'movies');
    assert.deepEqual(m.json.alias, ['films']);
    assert.equal((m.json.fields as Record<string, { type: string }>).year.type, 'int');
    const stats = await call(server, 'GET', '/v1/index/movies/stats');
    const segments = stats.json.segments as { name: string; maxDoc: number; delCount: number; files: string[] }[];
    const leaves = stats.json.leaves as { docBase: number; ord: number; numDocs: number; numDeletedDocs: number }[];
    assert.ok(segments.length >= 1);
    assert.equal(leaves.reduce((n, l) => n + l.numDocs, 0), 12);
    assert.deepEqual(leaves.map((l) => l.ord), segments.map((_, i) => i));
    assert.ok(segments.every((s) => s.files.length > 0));
    const list = await call(server, 'GET', '/v1/index');
    assert.deepEqual(list.json, { indexes: ['movies'], aliases: { movies: ['films'] } });
  });

  it('merges down to {"segments":N} and commits it', async () => {
    await call(server, 'POST', '/v1/index/movies?refresh=true', ndjson([{ _id: 'x1', title: 'extra', genre: 'x', year: 1990 }]));
    await call(server, 'POST', '/v1/index/movies?refresh=true', ndjson([{ _id: 'x2', title: 'extra', genre: 'x', year: 1991 }]));
    assert.ok(server.index.stats().segments >= 3);
    const seqBefore = server.index.stats().seq;
    const merged = await call(server, 'POST', '/v1/index/movies/merge', { segments: 1 });
    assert.equal(merged.status, 200);
    assert.equal(merged.json.status, 'ok');
    assert.equal(server.index.stats().segments, 1);
    assert.ok(server.index.stats().seq > seqBefore, 'the merge is committed');
    const bad = await call(server, 'POST', '/v1/index/movies/merge', { segments: 0 });
    assert.equal(bad.status, 400);
    assert.equal(errorOf(bad.json).field, 'segments');
    const unknown = await call(server, 'POST', '/v1/index/movies/merge', { segs: 1 });
    assert.equal(errorOf(unknown.json).field, 'segs');
  });

  it('deletes by filter (no filter: 400, nothing deleted) and by id (deleted 0 or 1), visible at once', async () => {
    const none = await call(server, 'POST', '/v1/index/movies/delete', {});
    assert.equal(none.status, 400);
    assert.match(errorOf(none.json).reason, /needs a filter/);
    const empty = await call(server, 'POST', '/v1/index/movies/delete', '');
    assert.equal(empty.status, 400);
    assert.equal(server.index.stats().docs, 14);
    const byFilter = await call(server, 'POST', '/v1/index/films/delete', { filters: { include: { term: { genre: 'x' } } } });
    assert.equal(byFilter.status, 200);
    assert.equal(byFilter.json.deleted, 2);
    assert.equal(byFilter.json.status, 'ok');
    const one = await call(server, 'DELETE', '/v1/index/movies/doc/m0');
    assert.deepEqual([one.status, one.json.deleted], [200, 1]);
    const again = await call(server, 'DELETE', '/v1/index/movies/doc/m0');
    assert.deepEqual([again.status, again.json.deleted], [200, 0]);
    const left = await call(server, 'POST', '/v1/index/movies/search', { size: 100 });
    assert.equal((left.json.hits as unknown[]).length, 11);
  });

  it('shows the config with secrets redacted', async () => {
    const r = await call(server, 'GET', '/v1/system/config');
    assert.deepEqual(r.json, { api: { auth: { tokens: [REDACTED] } } });
  });

  it('answers 405 naming the allowed methods on /v1 paths, and no CORS headers when none are configured', async () => {
    const r = await call(server, 'GET', '/v1/index/movies/search');
    assert.equal(r.status, 405);
    assert.equal(r.headers.get('allow'), 'POST');
    const d = await call(server, 'POST', '/v1/index/movies/doc/m1');
    assert.equal(d.headers.get('allow'), 'DELETE');
    const cors = await fetch(`${server.base}/v1/index`, { headers: { origin: 'https://evil.example' } });
    assert.equal(cors.headers.get('access-control-allow-origin'), null);
  });
});

describe('legacy _delete, _merge, _mapping, _stats routes', () => {
  let server: LoopbackIndex;
  before(async () => {
    server = await startServer('standalone');
    await call(server, 'POST', '/movies/_index?refresh=true', ndjson(movies.slice(0, 6)));
    await call(server, 'POST', '/movies/_index?refresh=true', ndjson(movies.slice(6)));
  });
  after(async () => {
    await server.close();
  });

  it('answer in the seed\'s style: result and took in ms', async () => {
    const del = await call(server, 'POST', '/films/_delete', { filters: { include: { term: { genre: 'drama' } } } });
    assert.deepEqual([del.status, del.json.result, del.json.deleted, typeof del.json.took], [200, 'deleted', 4, 'number']);
    assert.equal((await call(server, 'POST', '/movies/_delete', {})).status, 400);
    const one = await call(server, 'DELETE', '/movies/_delete/m1');
    assert.deepEqual([one.json.result, one.json.deleted], ['deleted', 1]);
    const gone = await call(server, 'DELETE', '/movies/_delete/m1');
    assert.deepEqual([gone.json.result, gone.json.deleted], ['not_found', 0]);
    const merged = await call(server, 'POST', '/movies/_merge', '');
    assert.deepEqual([merged.json.result, merged.json.segments], ['merged', 1]);
    const mapping_ = await call(server, 'GET', '/films/_mapping');
    assert.deepEqual(mapping_.json.aliases, ['films']);
    assert.ok(Array.isArray((mapping_.json.mapping as { fields: unknown[] }).fields));
    const stats = await call(server, 'GET', '/movies/_stats');
    assert.equal(stats.json.docs, 7);
    assert.deepEqual((stats.json.segment_list as { docs: number; deleted: number }[]).map((s) => [s.docs, s.deleted]), [[7, 0]]);
  });
});

describe('/v1 routes by role and behind tokens', () => {
  it('serve writes but not searches in api mode, and need the write token for every write', async () => {
    const server = await startServer('api', { auth: new BearerAuth({ tokens: ['w'] }) });
    try {
      const auth = { authorization: 'Bearer w' };
      for (const [method, path, body] of [
        ['POST', '/v1/index/movies', ndjson(movies)],
        ['POST', '/v1/index/movies/flush', undefined],
        ['POST', '/v1/index/movies/merge', {}],
        ['POST', '/v1/index/movies/delete', { filters: { include: { term: { genre: 'drama' } } } }],
        ['DELETE', '/v1/index/movies/doc/m1', undefined],
        ['POST', '/movies/_delete', { filters: { include: { term: { genre: 'drama' } } } }],
        ['DELETE', '/movies/_delete/m2', undefined],
        ['POST', '/movies/_merge', {}],
      ] as const) {
        assert.equal((await call(server, method, path, body)).status, 401, `${method} ${path} without a token`);
        assert.equal((await call(server, method, path, body, auth)).status, 200, `${method} ${path} with the write token`);
      }
      // Write-only segments (api mode) are opened in full for a delete by filter: the drama docs went.
      assert.equal(server.index.stats().docs, 12 - 4 - 1 - 1);
      assert.equal((await call(server, 'POST', '/v1/index/movies/search', {})).status, 405);
      assert.equal((await call(server, 'GET', '/v1/index/movies')).status, 200);
    } finally {
      await server.close();
    }
  });

  it('serve searches but not writes in search mode', async () => {
    const server = await startServer('search');
    try {
      assert.equal((await call(server, 'POST', '/v1/index/movies', '{}')).status, 405);
      assert.equal((await call(server, 'POST', '/v1/index/movies/delete', { filters: { include: { term: { genre: 'x' } } } })).status, 405);
      assert.equal((await call(server, 'POST', '/v1/index/movies/search', {})).status, 200);
    } finally {
      await server.close();
    }
  });
});

describe('CORS', () => {
  it('allows the configured origins only, and answers preflights before the token check', async () => {
    const server = await startServer('standalone', { corsOrigins: ['https://app.example'], auth: new BearerAuth({ tokens: ['w'], readTokens: ['r'] }) });
    try {
      const allowed = await fetch(`${server.base}/v1/index`, { headers: { origin: 'https://app.example', authorization: 'Bearer r' } });
      assert.equal(allowed.status, 200);
      assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://app.example');
      const other = await fetch(`${server.base}/v1/index`, { headers: { origin: 'https://evil.example', authorization: 'Bearer r' } });
      assert.equal(other.headers.get('access-control-allow-origin'), null);
      const preflight = await fetch(`${server.base}/v1/index/movies/search`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://app.example');
      assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
      assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /authorization/);
    } finally {
      await server.close();
    }
  });

  it('allows any origin with "*"', async () => {
    const server = await startServer('standalone', { corsOrigins: ['*'] });
    try {
      const res = await fetch(`${server.base}/v1/index`, { headers: { origin: 'https://anywhere.example' } });
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
    } finally {
      await server.close();
    }
  });
});
