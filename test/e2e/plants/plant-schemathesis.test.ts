/**
 * Runs schemathesis (from PyPI; .ci/run installs a pinned copy) against the real server's /openapi.json with a
 * token: every check it has, positive and negative data, and the stateful phase that follows the
 * document's links (create, then read and delete what was created). A fixed seed and example budget
 * keep the run bounded and repeatable.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runSchemathesis } from '../../helpers/schemathesis.js';
import { Workspace } from '../cli/cli-harness.js';
import { ServerProcess } from '../api/server-harness.js';
import { PLANT_ENV, PLANTS_CONFIG, TOKEN } from './plant-harness.js';

describe('schemathesis against the plant store', () => {
  it('finds no failure with every check, positive and negative data, and stateful links', { timeout: 240_000 }, async () => {
    const ws = await Workspace.create(PLANTS_CONFIG);
    try {
      const server = await ServerProcess.start(ws, 'api', PLANT_ENV);
      try {
        const { code, output } = await runSchemathesis([
          'run', `${server.url}/openapi.json`,
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
