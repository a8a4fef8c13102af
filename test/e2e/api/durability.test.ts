import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Workspace, movieLines } from '../cli/cli-harness.js';
import { ServerProcess, eventually } from './server-harness.js';

const ids = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

describe('yarrow standalone durability and concurrency', () => {
  it('keeps every document of a request acknowledged just before a SIGKILL', { timeout: 60_000 }, async () => {
    const ws = await Workspace.create();
    try {
      const first = await ServerProcess.start(ws, 'standalone', { YARROW_REFRESH_INTERVAL_MS: '0' });
      const r = await first.index('movies', movieLines('k', 500));
      assert.equal(r.status, 200);
      // No flush, no refresh: the documents exist only in the write-ahead log when the process dies.
      assert.equal(await first.stop('SIGKILL'), null);
      const second = await ServerProcess.start(ws, 'standalone');
      try {
        const s = await second.search('movies', { query: { match_all: {} }, size: 1000 });
        assert.deepEqual(s.json.hits.map((h) => h._id).sort(), ids('k', 500).sort());
      } finally {
        assert.equal(await second.stop(), 0);
      }
    } finally {
      await ws.cleanup();
    }
  });

  it('keeps every document of several requests acknowledged before a SIGKILL (later records built in the buffers of earlier ones)', { timeout: 60_000 }, async () => {
    const ws = await Workspace.create();
    try {
      const first = await ServerProcess.start(ws, 'standalone', { YARROW_REFRESH_INTERVAL_MS: '0' });
      // Bodies of different sizes, so a record is built in a spare buffer too large and too small for it.
      const sizes = [800, 200, 1500, 50, 900];
      for (const [i, n] of sizes.entries()) assert.equal((await first.index('movies', movieLines(`b${i}-`, n))).status, 200);
      assert.equal(await first.stop('SIGKILL'), null);
      const second = await ServerProcess.start(ws, 'standalone');
      try {
        const s = await second.search('movies', { query: { match_all: {} }, size: 5000 });
        assert.deepEqual(s.json.hits.map((h) => h._id).sort(), sizes.flatMap((n, i) => ids(`b${i}-`, n)).sort());
      } finally {
        assert.equal(await second.stop(), 0);
      }
    } finally {
      await ws.cleanup();
    }
  });

  it('commits buffered documents on SIGTERM and exits 0', { timeout: 60_000 }, async () => {
    const ws = await Workspace.create();
    try {
      const server = await ServerProcess.start(ws, 'api', { YARROW_REFRESH_INTERVAL_MS: '0' });
      assert.equal((await server.index('movies', movieLines('t', 50))).status, 200);
      assert.equal(await server.stop('SIGTERM'), 0);
      assert.match(server.log, /shut down cleanly/);
      // Read through the library, read-only: only a commit (not a WAL replay) makes them visible.
      assert.deepEqual(await ws.ids(), ids('t', 50).sort());
    } finally {
      await ws.cleanup();
    }
  });

  it('finishes a request in flight on SIGTERM, commits it, and exits 0', { timeout: 60_000 }, async () => {
    const ws = await Workspace.create();
    try {
      const server = await ServerProcess.start(ws, 'standalone', { YARROW_REFRESH_INTERVAL_MS: '0' }, ['-l', 'debug']);
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => { release = resolve; });
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode(movieLines('f', 100)));
          await gate;
          controller.enqueue(new TextEncoder().encode(movieLines('g', 100)));
          controller.close();
        },
      });
      const response = server.fetch('/movies/_index', { method: 'POST', body, duplex: 'half' });
      await eventually(() => Promise.resolve(server.log.includes('POST /movies/_index started')), 'the request to arrive');
      server.child.kill('SIGTERM');
      await eventually(() => Promise.resolve(server.log.includes('shutting down')), 'the shutdown to begin');
      release();
      const res = await response;
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as { docs: number }).docs, 200);
      assert.equal(await server.waitForExit(), 0);
      assert.deepEqual(await ws.ids(), [...ids('f', 100), ...ids('g', 100)].sort());
    } finally {
      await ws.cleanup();
    }
  });

  it('loses and duplicates nothing when several clients post overlapping ids at once', { timeout: 60_000 }, async () => {
    const ws = await Workspace.create();
    const server = await ServerProcess.start(ws, 'standalone', { YARROW_REFRESH_INTERVAL_MS: '50' });
    try {
      const clients = 8;
      const perClient = 400;
      // Client c writes ids c*200+1 .. c*200+400: each id is written by two clients; the last write wins.
      const bodies = Array.from({ length: clients }, (_, c) => {
        let body = '';
        for (let i = 1; i <= perClient; i++) {
          const n = c * 200 + i;
          body += `${JSON.stringify({ _id: `m${n}`, title: `client ${c}`, year: c })}\n`;
        }
        return body;
      });
      const results = await Promise.all(bodies.map((b) => server.index('movies', b)));
      for (const r of results) assert.equal(r.status, 200);
      const expected = (clients - 1) * 200 + perClient;
      // Searchable within the refresh interval, without ?refresh.
      await eventually(async () => (await server.search('movies', { query: { match_all: {} }, size: 0, track_total_hits: true })).json.total === expected, 'the refresh');
      const s = await server.search('movies', { query: { match_all: {} }, size: 5000, fields: ['year'] });
      assert.equal(s.json.total, expected);
      const seen = new Set(s.json.hits.map((h) => h._id));
      assert.equal(seen.size, expected, 'no duplicates');
      for (let n = 1; n <= expected; n++) assert.ok(seen.has(`m${n}`), `m${n}`);
      // Every document holds the content of one of the clients that wrote it.
      for (const h of s.json.hits) {
        const n = Number(h._id.slice(1));
        const writers = [Math.floor((n - 1) / 200), Math.floor((n - 1) / 200) - 1].filter((c) => c >= 0 && c < clients && n - c * 200 >= 1 && n - c * 200 <= perClient);
        assert.ok(writers.includes(h.year as number), `${h._id} has year ${String(h.year)}`);
      }
    } finally {
      assert.equal(await server.stop(), 0);
      await ws.cleanup();
    }
  });
});
