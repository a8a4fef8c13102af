import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildServer, WritableIndex } from '../../../src/api/index.js';
import type { ServedIndex, ServerRole } from '../../../src/api/index.js';
import { Index, silentLogger } from '../../../src/engine/index.js';
import { LocalDirectory } from '../../../src/storage/index.js';
import { temporaryDirectories } from '../../helpers/temp-dirs.js';

const mapping = {
  fields: {
    title: { type: 'text', suggest: true },
    genre: { type: 'text', suggest: { lowercase: true } },
    body: { type: 'text' },
  },
};

const docs = [
  { _id: '1', title: 'Star Wars', genre: 'Space Opera', body: 'a' },
  { _id: '2', title: 'Star Trek', genre: 'Space Adventure', body: 'b' },
  { _id: '3', title: 'Stargate', genre: 'Science Fiction', body: 'c' },
  { _id: '4', title: 'Starship Troopers', genre: 'Space War', body: 'd' },
];

const tempDir = temporaryDirectories('yarrow-suggest-api-');

interface Suggestions {
  suggestions: { text: string; score: number }[];
  took: number;
}

/** Serves the index at `path` on a loopback port and runs `body` with its base URL. */
async function serve(path: string, role: ServerRole, body: (url: string) => Promise<void>): Promise<void> {
  const index = await Index.open(await LocalDirectory.open(path), { name: 'movies', mapping, refreshIntervalMs: 0 });
  const indexes = new Map<string, ServedIndex>([['movies', new WritableIndex('movies', index, path)]]);
  const { app } = buildServer({ role, indexes, log: silentLogger, version: 'test' });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    await body(url);
  } finally {
    await app.close();
    await index.close();
  }
}

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('suggest routes', () => {
  it('answer /v1/index/<index>/suggest in Nixiesearch 0.8 shape and the legacy _suggest routes alike', async () => {
    const path = await tempDir();
    await serve(path, 'standalone', async (url) => {
      const indexed = await fetch(`${url}/movies/_index?refresh=true`, { method: 'POST', body: docs.map((d) => JSON.stringify(d)).join('\n') });
      assert.equal(indexed.status, 200);
      const v1 = await post(`${url}/v1/index/movies/suggest`, { query: 'sta', fields: ['title'], count: 3, rerank: { rrf: { depth: 50, scale: 60 } } });
      assert.equal(v1.status, 200);
      const body = v1.json as unknown as Suggestions;
      assert.deepEqual(body.suggestions.map((s) => s.text), ['Star', 'Star Trek', 'Star Wars']);
      assert.deepEqual(Object.keys(body.suggestions[0]).sort(), ['score', 'text']);
      assert.equal(body.suggestions[0].score, 1 / 61);
      assert.equal(typeof body.took, 'number');
      assert.ok(body.took < 5, `took is in seconds on /v1 (${body.took})`);

      const legacy = await post(`${url}/movies/_suggest`, { query: 'spa', fields: ['genre', 'title'] });
      assert.equal(legacy.status, 200);
      // Exact completions (from genre) first; with fewer than 10, corrections of "spa" (title's "sta...") follow.
      const texts = (legacy.json as unknown as Suggestions).suggestions.map((s) => s.text);
      assert.deepEqual(texts.slice(0, 4), ['space', 'space adventure', 'space opera', 'space war']);
      assert.deepEqual(texts.slice(4, 6), ['Star', 'Star Trek']);
      const get = await fetch(`${url}/movies/_suggest?q=stra&fields=title,genre&count=2`);
      assert.equal(get.status, 200);
      assert.deepEqual(((await get.json()) as Suggestions).suggestions.map((s) => s.text), ['Star', 'Star Trek'], 'one typo in the last word');
    });
    // Flushed on close, read back from the segment files by a new process-like open.
    await serve(path, 'search', async (url) => {
      const res = await post(`${url}/v1/index/movies/suggest`, { query: 'starg', fields: ['title'], count: 1 });
      assert.deepEqual((res.json as unknown as Suggestions).suggestions.map((s) => s.text), ['Stargate']);
    });
  });

  it('answer 400 naming an unknown field, a field without suggest and an unknown key; 404 and 405 as other routes', async () => {
    const path = await tempDir();
    await serve(path, 'standalone', async (url) => {
      const unknown = await post(`${url}/v1/index/movies/suggest`, { query: 'a', fields: ['plot'] });
      assert.equal(unknown.status, 400);
      const unknownError = unknown.json.error as Record<string, unknown>;
      assert.equal(unknownError.type, 'invalid_query');
      assert.equal(unknownError.field, 'plot');
      assert.match(String(unknownError.reason), /"plot" is not in the mapping/);
      const plain = await post(`${url}/movies/_suggest`, { query: 'a', fields: ['body'] });
      assert.equal(plain.status, 400);
      assert.equal((plain.json.error as Record<string, unknown>).field, 'body');
      assert.match(String((plain.json.error as Record<string, unknown>).reason), /"body" has no suggestions/);
      const key = await post(`${url}/v1/index/movies/suggest`, { query: 'a', size: 3 });
      assert.equal(key.status, 400);
      assert.match(String((key.json.error as Record<string, unknown>).reason), /^size: unknown key/);
      const notJson = await post(`${url}/v1/index/movies/suggest`, '{"query":');
      assert.equal(notJson.status, 400);
      assert.equal((notJson.json.error as Record<string, unknown>).type, 'invalid_request');
      assert.equal((await post(`${url}/v1/index/nope/suggest`, { query: 'a' })).status, 404);
      const put = await fetch(`${url}/v1/index/movies/suggest`, { method: 'PUT', body: '{}' });
      assert.equal(put.status, 405);
      assert.equal(put.headers.get('allow'), 'POST');
    });
    await serve(path, 'api', async (url) => {
      assert.equal((await post(`${url}/v1/index/movies/suggest`, { query: 'a' })).status, 405);
    });
  });
});
