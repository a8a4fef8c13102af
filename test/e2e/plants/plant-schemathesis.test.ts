/**
 * Runs schemathesis (from PyPI; .ci/run installs it) against the real server's /openapi.json with a
 * token: every check it has, positive and negative data, and the stateful phase that follows the
 * document's links (create, then read and delete what was created). A fixed seed and example budget
 * keep the run bounded and repeatable.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { Workspace } from '../cli/cli-harness.js';
import { ServerProcess } from '../api/server-harness.js';
import { PLANT_ENV, PLANTS_CONFIG, TOKEN } from './plant-harness.js';

function run(command: string, args: readonly string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => { output += s; });
    child.stderr.setEncoding('utf8').on('data', (s: string) => { output += s; });
    child.once('error', (e) => { reject(new Error(`cannot run ${command} (install schemathesis from PyPI: pip install schemathesis): ${e.message}`)); });
    child.once('close', (code) => { resolve({ code, output }); });
  });
}

describe('schemathesis against the plant store', () => {
  it('finds no failure with every check, positive and negative data, and stateful links', { timeout: 240_000 }, async () => {
    const ws = await Workspace.create(PLANTS_CONFIG);
    try {
      const server = await ServerProcess.start(ws, 'api', PLANT_ENV);
      try {
        const { code, output } = await run('st', [
          '--no-color', 'run', `${server.url}/openapi.json`,
          '--header', `Authorization: Bearer ${TOKEN}`,
          '--include-path-regex', '^/plants',
          '--checks', 'all',
          '--mode', 'all',
          '--max-examples', '40',
          '--seed', '20261122',
          '--workers', '1',
          '--generation-database', 'none',
          '--request-timeout', '10',
        ], ws.dir);
        assert.equal(code, 0, `schemathesis reported failures:\n${output}`);
        assert.match(output, /No issues found/);
        // Every plant operation was exercised, with the token.
        assert.match(output, /Selected: 4\//);
        assert.match(server.log, /POST \/plants 200/);
        assert.match(server.log, /DELETE \/plants\/-?\d+ 204/);
      } finally {
        assert.equal(await server.stop(), 0);
      }
    } finally {
      await ws.cleanup();
    }
  });
});
