import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { indexBody } from '../../src/api/push-indexer.js';
import { HttpError } from '../../src/api/http-status.js';
import { Index, YarrowError } from '../../src/engine/index.js';
import { MemoryDirectory } from '../../src/storage/index.js';

const mapping = { fields: { _id: { type: 'id' }, title: { type: 'text' }, year: { type: 'int', filter: true } } };

function chunks(text: string, size: number): AsyncIterable<Buffer> {
  const bytes = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

const lines = (n: number, from = 0): string => Array.from({ length: n }, (_, i) => JSON.stringify({ _id: `d${from + i}`, title: `doc ${from + i}`, year: from + i })).join('\n');

// The same behaviour whether this thread splits and validates the body, or the writer's inversion
// thread does (the `api` and `standalone` modes).
for (const [label, inversionThreads] of [['on the calling thread', 0], ['on the inversion thread', 1]] as const) {
  const open = (dir = new MemoryDirectory('memory:t')): Promise<Index> => Index.open(dir, { name: 't', mapping, refreshIntervalMs: 0, writer: { inversionThreads } });

  describe(`indexBody, parsed ${label}`, () => {
    it('writes every document and reports progress', async () => {
      const index = await open();
      try {
        assert.equal(index.writer().upsertBody(Readable.from([]), undefined) === null, inversionThreads === 0);
        const progress: number[] = [];
        const body = lines(25);
        const result = await indexBody(index, chunks(body, 17), { progressBytes: 200, onProgress: (_docs, bytes) => { progress.push(bytes); } });
        assert.deepEqual(result, { docs: 25, bytes: Buffer.byteLength(body) });
        assert.ok(progress.length >= 3, `progress reported ${progress.length} times`);
        await index.refresh();
        assert.equal(index.stats().docs, 25);
        assert.deepEqual(index.search({ query: { match: { title: '7' } } }).hits.map((h) => h._id), ['d7']);
      } finally {
        await index.close();
      }
    });

    it('writes nothing when a later document is invalid, and goes on with the next body', async () => {
      const index = await open();
      try {
        const body = `${lines(10)}\n{"_id":"bad","year":"x"}\n${lines(5, 20)}`;
        await assert.rejects(indexBody(index, chunks(body, 50)), (e: unknown) => e instanceof YarrowError && e.details.line === 11 && e.details.field === 'year');
        await assert.rejects(indexBody(index, chunks(`${lines(3)}\n{"_id":"cut","title":"no end`, 7)), (e: unknown) => e instanceof YarrowError && e.details.ordinal === 4);
        await index.refresh();
        assert.equal(index.stats().docs, 0);
        assert.equal((await indexBody(index, chunks(lines(4, 100), 9))).docs, 4);
        await index.refresh();
        assert.equal(index.stats().docs, 4);
      } finally {
        await index.close();
      }
    });

    it('refuses a body without documents', async () => {
      const index = await open();
      try {
        await assert.rejects(indexBody(index, chunks(' \n\n ', 2)), (e: unknown) => e instanceof HttpError && /holds no documents/.test(e.message));
        assert.equal(index.writer().figures().walBytes, 0);
      } finally {
        await index.close();
      }
    });

    it('keeps concurrent bodies apart, each all or nothing, and every acknowledged one through a crash', async () => {
      const dir = new MemoryDirectory('memory:t');
      const index = await open(dir);
      const bodies = [lines(300, 0), `${lines(50, 1000)}\n{"_id":"bad","year":[]}`, lines(200, 2000), `[${lines(100, 3000).split('\n').join(',')}]`];
      const results = await Promise.allSettled(bodies.map((b, i) => indexBody(index, chunks(b, 64 + i * 13))));
      assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      // The process dies before any refresh or commit: the log holds the three acknowledged bodies.
      const reopened = await Index.open(dir.crashCopy(), { name: 't', refreshIntervalMs: 0 });
      try {
        assert.equal(reopened.stats().docs, 600);
        assert.equal(reopened.search({ query: { match: { title: '1010' } } }).total, 0);
        assert.equal(reopened.search({ query: { match: { title: '3099' } } }).hits[0]?._id, 'd3099');
      } finally {
        await reopened.close();
        await index.close();
      }
    });
  });
}
