import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { indexBody } from '../../src/api/push-indexer.js';
import { Index, YarrowError } from '../../src/engine/index.js';
import { MemoryDirectory } from '../../src/storage/index.js';

const mapping = { fields: { _id: { type: 'id' }, title: { type: 'text' }, year: { type: 'int', filter: true } } };

function chunks(text: string, size: number): AsyncIterable<Buffer> {
  const bytes = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

const lines = (n: number): string => Array.from({ length: n }, (_, i) => JSON.stringify({ _id: `d${i}`, title: `doc ${i}`, year: i })).join('\n');

describe('indexBody', () => {
  it('writes every document and reports progress', async () => {
    const index = await Index.open(new MemoryDirectory('memory:t'), { name: 't', mapping, refreshIntervalMs: 0 });
    try {
      const progress: number[] = [];
      const body = lines(25);
      const result = await indexBody(index, chunks(body, 17), { progressBytes: 200, onProgress: (_docs, bytes) => { progress.push(bytes); } });
      assert.deepEqual(result, { docs: 25, bytes: Buffer.byteLength(body) });
      assert.ok(progress.length >= 3, `progress reported ${progress.length} times`);
      await index.refresh();
      assert.equal(index.stats().docs, 25);
    } finally {
      await index.close();
    }
  });

  it('writes nothing when a later document is invalid', async () => {
    const index = await Index.open(new MemoryDirectory('memory:t'), { name: 't', mapping, refreshIntervalMs: 0 });
    try {
      const body = `${lines(10)}\n{"_id":"bad","year":"x"}\n`;
      await assert.rejects(indexBody(index, chunks(body, 50)), (e: unknown) => e instanceof YarrowError && e.details.line === 11 && e.details.field === 'year');
      await index.refresh();
      assert.equal(index.stats().docs, 0);
    } finally {
      await index.close();
    }
  });
});
