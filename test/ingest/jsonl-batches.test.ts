import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ErrorCode, YarrowError } from '../../src/engine/index.js';
import { readJsonlBatches } from '../../src/ingest/index.js';
import type { JsonlBatch } from '../../src/ingest/index.js';

function chunksOf(bytes: Buffer, cuts: readonly number[]): AsyncIterable<Buffer> {
  const chunks: Buffer[] = [];
  let start = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    if (cut <= start || cut >= bytes.length) continue;
    chunks.push(bytes.subarray(start, cut));
    start = cut;
  }
  if (start < bytes.length) chunks.push(bytes.subarray(start));
  return Readable.from(chunks);
}

async function collect(batches: AsyncIterable<JsonlBatch>): Promise<{ docs: unknown[]; lines: number[]; bytes: number; sizes: number[] }> {
  const out = { docs: [] as unknown[], lines: [] as number[], bytes: 0, sizes: [] as number[] };
  for await (const b of batches) {
    out.docs.push(...b.docs);
    out.lines.push(...b.lines);
    out.bytes += b.bytes;
    out.sizes.push(b.docs.length);
  }
  return out;
}

describe('readJsonlBatches', () => {
  it('yields documents with their line numbers, skipping blank lines and a BOM', async () => {
    const text = '\uFEFF{"a":1}\n\n  \r\n{"a":2}\r\n{"a":3}';
    const got = await collect(readJsonlBatches(chunksOf(Buffer.from(text), []), { source: 's' }));
    assert.deepEqual(got.docs, [{ a: 1 }, { a: 2 }, { a: 3 }]);
    assert.deepEqual(got.lines, [1, 4, 5]);
    assert.equal(got.bytes, Buffer.byteLength(text));
  });

  it('cuts batches at maxDocs and at maxBytes', async () => {
    const text = '{"a":1}\n'.repeat(10);
    assert.deepEqual((await collect(readJsonlBatches(chunksOf(Buffer.from(text), []), { source: 's', maxDocs: 4 }))).sizes, [4, 4, 2]);
    assert.deepEqual((await collect(readJsonlBatches(chunksOf(Buffer.from(text), []), { source: 's', maxBytes: 16 }))).sizes, [2, 2, 2, 2, 2]);
  });

  it('yields the same documents and lines however the bytes are split into chunks', async () => {
    const doc = fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.string({ unit: 'binary', maxLength: 8 }), fc.integer(), fc.boolean()), { maxKeys: 3 });
    const line = fc.oneof({ weight: 5, arbitrary: doc.map((d) => JSON.stringify(d)) }, { weight: 1, arbitrary: fc.constantFrom('', '  ', '\r') });
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 30 }), fc.array(fc.nat({ max: 2000 }), { maxLength: 20 }), fc.integer({ min: 1, max: 7 }), async (lines, cuts, maxDocs) => {
        const bytes = Buffer.from(lines.join('\n'));
        const whole = await collect(readJsonlBatches(chunksOf(bytes, []), { source: 's', maxDocs: 1000 }));
        const split = await collect(readJsonlBatches(chunksOf(bytes, cuts), { source: 's', maxDocs }));
        assert.deepEqual(split.docs, whole.docs);
        assert.deepEqual(split.lines, whole.lines);
        assert.ok(split.bytes <= bytes.length);
        const expected = lines.flatMap((l, i) => (l.trim() === '' ? [] : [i + 1]));
        assert.deepEqual(whole.lines, expected);
      }),
    );
  });

  it('names source and line of invalid JSON', async () => {
    const bytes = Buffer.from('{"a":1}\n{"a":\n');
    await assert.rejects(collect(readJsonlBatches(chunksOf(bytes, [3]), { source: 'f.jsonl' })), (e: unknown) => {
      assert.ok(e instanceof YarrowError);
      assert.equal(e.code, ErrorCode.invalidDocument);
      assert.match(e.message, /^f\.jsonl, line 2: invalid JSON: /);
      assert.equal(e.details.line, 2);
      assert.equal(e.details.expected, 'JSON object');
      return true;
    });
  });

  it('refuses ill-formed UTF-8 naming the line and the byte, wherever the chunks are cut', async () => {
    const bytes = Buffer.concat([Buffer.from('{"a":"é"}\n{"a":"ok"}\n{"a":"x'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]);
    for (const cut of [0, 5, 12, 27, 28, 29]) {
      await assert.rejects(collect(readJsonlBatches(chunksOf(bytes, [cut]), { source: 'u.jsonl' })), (e: unknown) => {
        assert.ok(e instanceof YarrowError);
        assert.equal(e.code, ErrorCode.invalidDocument);
        assert.equal(e.message, 'u.jsonl, line 3: invalid UTF-8: byte 0xc3 at byte offset 7 of the line');
        assert.deepEqual([e.details.line, e.details.byte, e.details.expected, e.details.actual], [3, 7, 'UTF-8', 'invalid byte 0xc3']);
        return true;
      });
    }
  });

  it('refuses a line longer than maxLineBytes instead of buffering it', async () => {
    const bytes = Buffer.from(`{"a":"${'x'.repeat(100)}"}\n`);
    await assert.rejects(collect(readJsonlBatches(chunksOf(bytes, [10, 20, 30, 40, 50]), { source: 's', maxLineBytes: 32 })), /s, line 1: line is longer than 32 bytes/);
  });
});
