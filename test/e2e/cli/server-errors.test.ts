/**
 * Issue 15 (Nixiesearch 0.8 compatibility), driven through the built executable: a port another
 * process holds ends `standalone`, `api` and `search` with one readable line and exit code 2, and
 * `GET /health` answers like `GET /_health`, open even when reads need a token.
 */
import assert from 'node:assert/strict';
import type { Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { errorLines, holdPort, MOVIES_SCHEMA, Workspace } from './cli-harness.js';
import { ServerProcess } from '../api/server-harness.js';

describe('yarrow HTTP modes on a port another process holds', () => {
  let ws: Workspace;
  let held: { port: number; server: Server };
  before(async () => {
    ws = await Workspace.create();
    held = await holdPort();
  });
  after(async () => {
    await new Promise<void>((resolve) => held.server.close(() => { resolve(); }));
    await ws.cleanup();
  });

  for (const mode of ['standalone', 'api', 'search']) {
    it(`${mode} exits 2 with one line naming the address`, async () => {
      const run = await ws.run([mode, '-c', 'conf.yml', '-h', '127.0.0.1', '-p', String(held.port)]);
      assert.equal(run.code, 2, run.stderr);
      assert.deepEqual(errorLines(run), [
        `error: cannot listen on 127.0.0.1:${held.port}: the address is already in use (another process holds it; choose another port with -p)`,
      ]);
      assert.doesNotMatch(run.stderr, /looks like a bug|\n\s+at /);
    });
  }
});

describe('GET /health', () => {
  let ws: Workspace;
  let server: ServerProcess;
  before(async () => {
    ws = await Workspace.create(`store:\n  local: { path: ./data }\napi:\n  auth:\n    tokens: ["write-token"]\n    read_tokens: ["read-token"]\n${MOVIES_SCHEMA}`);
    server = await ServerProcess.start(ws, 'standalone');
  });
  after(async () => {
    await server.stop();
    await ws.cleanup();
  });

  it('answers like /_health, without a token even when reads need one', async () => {
    const health = await server.fetch('/health');
    const underscored = await server.fetch('/_health');
    assert.equal(health.status, 200);
    assert.equal(underscored.status, 200);
    const body = (await health.json()) as { status: string; indexes: Record<string, { status: string }> };
    assert.equal(body.status, 'ok');
    assert.deepEqual(Object.keys(body.indexes), ['movies']);
    assert.deepEqual(Object.keys(body), Object.keys((await underscored.json()) as object));
    // Reads do need the token: the probe path is open on purpose, not because auth is off.
    assert.equal((await server.fetch('/_indexes')).status, 401);
    assert.equal((await server.fetch('/health', { method: 'HEAD' })).status, 200);
  });

  it('is listed in /openapi.json', async () => {
    const doc = (await (await server.fetch('/openapi.json')).json()) as { paths: Record<string, unknown> };
    assert.ok('/health' in doc.paths);
  });
});
