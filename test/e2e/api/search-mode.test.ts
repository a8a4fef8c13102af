import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Workspace, movieLines } from '../cli/cli-harness.js';
import { ServerProcess, eventually } from './server-harness.js';

describe('yarrow search', () => {
  it('serves what index file committed and follows commits of a separate index file process', { timeout: 90_000 }, async () => {
    const ws = await Workspace.create();
    try {
      await ws.write('a.jsonl', movieLines('a', 20));
      assert.equal((await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'a.jsonl'])).code, 0);
      const server = await ServerProcess.start(ws, 'search');
      try {
        const total = async (): Promise<number> => (await server.search('movies', { query: { match_all: {} }, size: 0 })).json.total;
        assert.equal(await total(), 20);
        await ws.write('b.jsonl', movieLines('b', 15));
        assert.equal((await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'b.jsonl'])).code, 0);
        await eventually(async () => (await total()) === 35, 'the search process to pick up the new commit');
        const info = (await (await server.fetch('/movies')).json()) as { seq: number; docs: number };
        assert.equal(info.docs, 35);
        const metrics = await (await server.fetch('/metrics')).text();
        assert.match(metrics, /yarrow_reloads_total\{index="movies"\} [2-9]/);
      } finally {
        assert.equal(await server.stop('SIGINT'), 0);
      }
    } finally {
      await ws.cleanup();
    }
  });
});
