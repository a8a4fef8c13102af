/** Nixiesearch 0.8-shaped configs drive the real executable: stores, aliases, core settings and errors (issue 15). */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { CLI, errorLines, holdPort, movieLines, Workspace } from './cli-harness.js';
import { ServerProcess } from '../api/server-harness.js';

const NIXIE_CONFIG = `core:
  host: 127.0.0.1
  port: \${CORE_PORT:-8080}
searcher: {}
schema:
  movies:
    alias: [films]
    config:
      indexer:
        ram_buffer_size: 32mb
        merge_policy: { tiered: { segments_per_tier: 4 } }
    store:
      local:
        disk: { path: ./indexes }
    fields:
      title: { type: text, search: { lexical: { analyze: english } } }
      year: { type: int, filter: true, facet: true }
`;

/** Starts `yarrow standalone -c conf.yml` with no host or port flags; resolves with the URL it logs. */
async function startWithoutFlags(ws: Workspace, env: Record<string, string>): Promise<{ url: string; stop: () => Promise<void> }> {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  delete childEnv.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, [CLI, 'standalone', '-c', 'conf.yml'], { cwd: ws.dir, env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.setEncoding('utf8');
  const exited = new Promise<void>((resolve) => child.once('exit', () => { resolve(); }));
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (s: string) => {
      log += s;
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(log);
      if (m !== null) resolve(m[1]);
    });
    void exited.then(() => { reject(new Error(`standalone exited before listening:\n${log}`)); });
  });
  return { url, stop: async () => { child.kill('SIGTERM'); await exited; } };
}

describe('yarrow with a Nixiesearch 0.8 config', () => {
  let ws: Workspace;
  before(async () => {
    ws = await Workspace.create(NIXIE_CONFIG);
    await ws.write('movies.jsonl', movieLines('m', 3));
  });
  after(async () => { await ws.cleanup(); });

  it('index file writes to the store.local.disk path, reached through an alias', async () => {
    const run = await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'films', '-u', 'movies.jsonl']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(await ws.ids('movies', 'indexes'), ['m1', 'm2', 'm3']);
  });

  it('standalone binds core.host and core.port; YARROW_CORE_PORT overrides the file; -p overrides both', async () => {
    const held = await holdPort();
    const port = held.port;
    await new Promise<void>((resolve) => held.server.close(() => { resolve(); }));
    const fromFile = await startWithoutFlags(ws, { CORE_PORT: String(port) });
    try {
      assert.equal(fromFile.url, `http://127.0.0.1:${port}`);
    } finally {
      await fromFile.stop();
    }
    const fromEnv = await startWithoutFlags(ws, { CORE_PORT: '1', YARROW_CORE_PORT: String(port) });
    try {
      assert.equal(fromEnv.url, `http://127.0.0.1:${port}`);
    } finally {
      await fromEnv.stop();
    }
    // The config's port is taken by someone else: only the -p 0 of the command line lets the server start.
    const blocker = await holdPort();
    const server = await ServerProcess.start(ws, 'standalone', { CORE_PORT: String(blocker.port) });
    try {
      assert.notEqual(new URL(server.url).port, String(blocker.port));
      const res = await server.search('movies', { query: { match_all: {} } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.json.hits.map((h) => h._id).sort(), ['m1', 'm2', 'm3']);
    } finally {
      await server.stop();
      blocker.server.close();
    }
  });

  it('standalone refuses a distributed store, as Nixiesearch does', async () => {
    await ws.write('dist.yml', 'schema:\n  movies:\n    store:\n      distributed:\n        remote: { s3: { bucket: b, prefix: movies } }\n    fields: { title: { type: text } }\n');
    const run = await ws.run(['standalone', '-c', 'dist.yml', '-p', '0']);
    assert.equal(run.code, 2);
    assert.match(errorLines(run)[0], /^error: yarrow standalone cannot serve index movies: its store is distributed \(schema\.movies\.store\.distributed\)/);
  });

  it('prints every problem of a config on its own line and exits 2', async () => {
    await ws.write('bad.yml', 'core:\n  port: http\nschema:\n  movies:\n    fields:\n      title: { type: txt }\n      year: { type: int, facet: maybe }\n');
    const run = await ws.run(['index', 'file', '-c', 'bad.yml', '-i', 'movies', '-u', 'movies.jsonl']);
    assert.equal(run.code, 2);
    const lines = errorLines(run);
    assert.equal(lines.length, 3, run.stderr);
    assert.match(lines[0], /^error: bad\.yml:2: core\.port: /);
    assert.match(lines[1], /^error: bad\.yml:6: schema\.movies\.fields\.title\.type: /);
    assert.match(lines[2], /^error: bad\.yml:7: schema\.movies\.fields\.year\.facet: expected true or false but got "maybe"$/);
  });
});
