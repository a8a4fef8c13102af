/**
 * The real executable with a Nixiesearch 0.8 config (issue 15): `index file --force_merge`, then
 * `standalone` serving /v1 with the config's alias, its `api.cors` origins and its config at
 * `/v1/system/config` with the tokens redacted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { movieLines, Workspace } from './cli-harness.js';
import { ServerProcess } from '../api/server-harness.js';

const CONFIG = `api:
  auth: { tokens: [top-secret-token] }
  cors: { origins: ['https://app.example'] }
schema:
  movies:
    alias: [films]
    store:
      local:
        disk: { path: ./indexes }
    fields:
      title: { type: text, search: { lexical: { analyze: english } } }
      year: { type: int, filter: true, facet: true }
`;

describe('yarrow with Nixiesearch 0.8 CLI flags and /v1 routes', () => {
  let ws: Workspace;
  before(async () => {
    ws = await Workspace.create(CONFIG);
    for (let i = 0; i < 3; i++) await ws.write(`docs/part${i}.jsonl`, movieLines(`p${i}-`, 4));
  });
  after(async () => { await ws.cleanup(); });

  it('index file --force_merge 1 leaves one segment (a commit per file makes three otherwise)', async () => {
    const run = await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'films', '-u', 'docs', '--force_merge', '1']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /force-merged index films from 3 to 1 segment \(--force_merge 1\)/);
    const bad = await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'docs', '--force_merge', 'x']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--force_merge/);
  });

  it('standalone serves /v1 under the alias, with CORS for the configured origin and the config redacted', async () => {
    const server = await ServerProcess.start(ws, 'standalone');
    try {
      const auth = { authorization: 'Bearer top-secret-token' };
      const stats = (await (await server.fetch('/v1/index/films/stats')).json()) as { segments: unknown[]; leaves: { numDocs: number }[] };
      assert.equal(stats.segments.length, 1);
      assert.equal(stats.leaves[0].numDocs, 12);
      const search = await server.fetch('/v1/index/films/search', { method: 'POST', body: JSON.stringify({ query: { match_all: {} }, size: 2 }), headers: { origin: 'https://app.example' } });
      assert.equal(search.status, 200);
      assert.equal(search.headers.get('access-control-allow-origin'), 'https://app.example');
      assert.equal((await server.fetch('/v1/index/films/delete', { method: 'POST', body: '{}' })).status, 401, 'a write needs the token');
      assert.equal((await server.fetch('/v1/index/films/delete', { method: 'POST', body: '{}', headers: auth })).status, 400, 'a delete needs a filter');
      const config = await (await server.fetch('/v1/system/config')).text();
      assert.doesNotMatch(config, /top-secret-token/);
      assert.match(config, /"tokens":\["<redacted>"\]/);
      assert.match(config, /"films"/);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
