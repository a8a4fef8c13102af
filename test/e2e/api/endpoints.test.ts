import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { Workspace, movieLines } from '../cli/cli-harness.js';
import { ServerProcess } from './server-harness.js';

type ErrorBody = { error: { type: string; reason: string; [k: string]: unknown } };

async function errorOf(res: Response): Promise<ErrorBody['error']> {
  const body = (await res.json()) as ErrorBody;
  assert.equal(typeof body.error.reason, 'string');
  assert.doesNotMatch(body.error.reason, /\n\s+at /, 'no stack trace');
  return body.error;
}

describe('yarrow standalone over HTTP', () => {
  let ws: Workspace;
  let server: ServerProcess;
  before(async () => {
    ws = await Workspace.create();
    server = await ServerProcess.start(ws, 'standalone', { YARROW_BODY_LIMIT: '200000', YARROW_REFRESH_INTERVAL_MS: '100' });
  });
  after(async () => {
    assert.equal(await server.stop('SIGTERM'), 0);
    await ws.cleanup();
  });

  it('answers /_health, /, /openapi.json and /_indexes', async () => {
    const health = (await (await server.fetch('/_health')).json()) as { status: string; indexes: Record<string, { status: string; seq: number }> };
    assert.equal(health.status, 'ok');
    assert.ok(Object.values(health.indexes).every((h) => h.status === 'ok' && typeof h.seq === 'number'), JSON.stringify(health));
    const home = await server.fetch('/');
    assert.equal(home.status, 200);
    assert.match(await home.text(), /Yarrow/);
    const doc = (await (await server.fetch('/openapi.json')).json()) as { openapi: string; paths: Record<string, unknown> };
    assert.equal(doc.openapi, '3.1.0');
    for (const p of ['/_health', '/_indexes', '/metrics', '/openapi.json', '/{index}', '/{index}/_index', '/{index}/_flush', '/{index}/_search']) assert.ok(p in doc.paths, p);
    const list = (await (await server.fetch('/_indexes')).json()) as { indexes: { name: string }[] };
    assert.deepEqual(list.indexes.map((i) => i.name), ['movies']);
  });

  it('indexes JSONL and makes it searchable at once with ?refresh=true', async () => {
    const r = await server.index('movies', movieLines('jl', 5), '?refresh=true', { 'content-type': 'application/x-ndjson' });
    assert.equal(r.status, 200);
    assert.equal(r.json.result, 'created');
    assert.equal(typeof r.json.took, 'number');
    assert.equal(r.json.docs, 5);
    const s = await server.search('movies', { query: { match: { title: 'jl' } }, size: 10 });
    assert.equal(s.status, 200);
    assert.equal(s.json.total, 5);
  });

  it('accepts concatenated values, a JSON array, a single object, form-encoded curl bodies, gzip and zstd', async () => {
    const concatenated = movieLines('cc', 3).replaceAll('\n', '');
    assert.equal((await server.index('movies', concatenated, '', { 'content-type': 'application/x-www-form-urlencoded' })).json.docs, 3);
    const array = JSON.stringify([{ _id: 'ar1', title: 'array one', year: 1 }, { _id: 'ar2', title: 'array two', year: 2 }]);
    assert.equal((await server.index('movies', array, '', { 'content-type': 'application/json' })).json.docs, 2);
    assert.equal((await server.index('movies', JSON.stringify({ _id: 'so1', title: 'single', year: 3 }))).json.docs, 1);
    assert.equal((await server.index('movies', gzipSync(movieLines('gz', 4)), '', { 'content-encoding': 'gzip' })).json.docs, 4);
    const zst = execFileSync('zstd', ['-q', '-c', '-'], { input: movieLines('zs', 2) });
    assert.equal((await server.index('movies', zst, '', { 'content-encoding': 'zstd' })).json.docs, 2);
    const put = await server.fetch('/movies/_index?refresh=true', { method: 'PUT', body: movieLines('pu', 1) });
    assert.equal(put.status, 200);
    const s = await server.search('movies', { query: { match_all: {} }, size: 100 });
    const ids = new Set(s.json.hits.map((h) => h._id));
    for (const id of ['cc1', 'cc3', 'ar1', 'ar2', 'so1', 'gz4', 'zs2', 'pu1']) assert.ok(ids.has(id), id);
  });

  it('searches with GET ?q= and POST, and describes the index', async () => {
    await server.index('movies', JSON.stringify({ _id: 'q1', title: 'Zanzibar express', year: 1990 }), '?refresh=true');
    const get = (await (await server.fetch('/movies/_search?q=zanzibar')).json()) as { hits: { _id: string }[] };
    assert.deepEqual(get.hits.map((h) => h._id), ['q1']);
    const post = await server.search('movies', { query: { match: { title: 'zanzibar' } }, fields: ['year'] });
    assert.deepEqual(post.json.hits, [{ _id: 'q1', _score: post.json.hits[0]._score, year: 1990 }]);
    const info = (await (await server.fetch('/movies')).json()) as Record<string, unknown>;
    for (const k of ['docs', 'segments', 'seq', 'size', 'mapping']) assert.ok(k in info, k);
  });

  it('commits on _flush with an empty 200', async () => {
    const before = (await (await server.fetch('/movies')).json()) as { seq: number };
    const res = await server.fetch('/movies/_flush', { method: 'POST' });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '');
    const after = (await (await server.fetch('/movies')).json()) as { seq: number };
    assert.ok(after.seq > before.seq);
  });

  it('answers 404 for an unknown index or path and 405 with Allow for a wrong method', async () => {
    for (const path of ['/nope/_search', '/nope', '/nope/_flush']) {
      const res = await server.fetch(path, { method: path.endsWith('_flush') ? 'POST' : 'GET' });
      assert.equal(res.status, 404, path);
      assert.equal((await errorOf(res)).type, 'index_not_found');
    }
    const idx = await server.fetch('/nope/_index', { method: 'POST', body: '{}' });
    assert.equal(idx.status, 404);
    const unknown = await server.fetch('/a/b/c');
    assert.equal(unknown.status, 404);
    assert.equal((await errorOf(unknown)).type, 'not_found');
    const wrong = await server.fetch('/movies/_index', { method: 'DELETE' });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get('allow'), 'POST, PUT');
    assert.equal((await errorOf(wrong)).type, 'method_not_allowed');
    assert.equal((await server.fetch('/movies/_flush')).status, 405);
    assert.equal((await server.fetch('/_health', { method: 'POST' })).status, 405);
  });

  it('rejects bad JSON naming the line, and a type mismatch naming line and field, indexing nothing of the request', async () => {
    const bad = await server.fetch('/movies/_index', { method: 'POST', body: `${movieLines('bj', 2)}{"_id": oops}\n` });
    assert.equal(bad.status, 400);
    const e1 = await errorOf(bad);
    assert.equal(e1.type, 'invalid_document');
    assert.equal(e1.line, 3);
    assert.match(e1.reason, /line 3/);
    const mismatch = await server.fetch('/movies/_index', { method: 'POST', body: `${movieLines('tm', 1)}{"_id":"tm2","title":"x","year":"soon"}\n` });
    assert.equal(mismatch.status, 400);
    const e2 = await errorOf(mismatch);
    assert.deepEqual([e2.type, e2.line, e2.field, e2.expected, e2.actual], ['invalid_document', 2, 'year', 'int', 'string']);
    const concatenated = await server.fetch('/movies/_index', { method: 'POST', body: '{"_id":"cx1","year":1}{"_id":"cx2","year":true}' });
    const e3 = await errorOf(concatenated);
    assert.deepEqual([e3.ordinal, e3.offset, e3.field, e3.line], [2, 22, 'year', undefined]);
    assert.match(e3.reason, /document 2, offset 22/);
    await server.fetch('/movies/_flush', { method: 'POST' });
    const s = await server.search('movies', { query: { match_all: {} }, size: 1000 });
    assert.ok(!s.json.hits.some((h) => ['bj1', 'bj2', 'tm1', 'cx1'].includes(h._id)), 'nothing of a rejected request is indexed');
  });

  it('rejects a body over the limit with 413, plain or compressed', async () => {
    const big = movieLines('big', 3000);
    assert.ok(big.length > 200_000);
    const res = await server.fetch('/movies/_index', { method: 'POST', body: big });
    assert.equal(res.status, 413);
    assert.equal((await errorOf(res)).type, 'payload_too_large');
    const bomb = await server.fetch('/movies/_index', { method: 'POST', body: gzipSync(Buffer.alloc(1_000_000, 0x20)), headers: { 'content-encoding': 'gzip' } });
    assert.equal(bomb.status, 413);
    const enc = await server.fetch('/movies/_index', { method: 'POST', body: '{}', headers: { 'content-encoding': 'lzma' } });
    assert.equal(enc.status, 415);
  });

  it('rejects malformed search requests with 400', async () => {
    const notJson = await server.fetch('/movies/_search', { method: 'POST', body: '{oops' });
    assert.equal(notJson.status, 400);
    assert.equal((await errorOf(notJson)).type, 'invalid_request');
    const badField = await server.fetch('/movies/_search', { method: 'POST', body: JSON.stringify({ query: { match: { nofield: 'x' } } }) });
    assert.equal(badField.status, 400);
    const e = await errorOf(badField);
    assert.equal(e.type, 'invalid_query');
    assert.equal(e.field, 'nofield');
    assert.equal((await server.fetch('/movies/_search?q=x&size=ten')).status, 400);
  });

  it('exposes Prometheus metrics and logs every request with method and path', async () => {
    const text = await (await server.fetch('/metrics')).text();
    for (const name of ['yarrow_http_requests_total', 'yarrow_http_request_duration_seconds_bucket', 'yarrow_docs_indexed_total', 'yarrow_commits_total', 'yarrow_refreshes_total', 'yarrow_index_segments', 'yarrow_wal_bytes']) {
      assert.match(text, new RegExp(`^${name}`, 'm'), name);
    }
    assert.match(text, /yarrow_http_requests_total\{method="POST",route="\/:index\/_index",status="200"\} \d+/);
    assert.match(server.log, /POST \/movies\/_index 200/);
    assert.match(server.log, /GET \/nope\/_search 404/);
  });
});

describe('yarrow api and yarrow search roles', () => {
  it('api answers searches with 405 and search answers writes with 405', async () => {
    const ws = await Workspace.create();
    try {
      const api = await ServerProcess.start(ws, 'index api');
      try {
        assert.equal((await api.index('movies', movieLines('r', 2))).status, 200);
        const s = await api.fetch('/movies/_search?q=r');
        assert.equal(s.status, 405);
        assert.equal((await errorOf(s)).type, 'method_not_allowed');
        assert.equal((await api.fetch('/movies')).status, 200);
      } finally {
        assert.equal(await api.stop(), 0);
      }
      const search = await ServerProcess.start(ws, 'search');
      try {
        const w = await search.fetch('/movies/_index', { method: 'POST', body: movieLines('w', 1) });
        assert.equal(w.status, 405);
        assert.equal((await errorOf(w)).type, 'method_not_allowed');
        assert.equal((await search.fetch('/movies/_flush', { method: 'POST' })).status, 405);
        assert.equal((await search.search('movies', { query: { match_all: {} } })).json.total, 2);
      } finally {
        assert.equal(await search.stop(), 0);
      }
    } finally {
      await ws.cleanup();
    }
  });
});
