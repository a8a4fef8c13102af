import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { ByteWriter } from '../../../../src/engine/codec/bytes/byte-writer.js';
import type { RandomAccessFile } from '../../../../src/engine/directory.js';
import { FOOTER_LENGTH, writeFooter, writeHeader } from '../../../../src/engine/codec/file-format.js';
import { DecodedBlockCache } from '../../../../src/engine/codec/stored-fields/decoded-block-cache.js';
import { StoredFieldsReader } from '../../../../src/engine/codec/stored-fields/stored-fields-reader.js';
import {
  STORED_FIELDS_MAGIC,
  STORED_FIELDS_VERSION,
  STORED_FIELDS_VERSION_DEFLATE,
  StoredFieldsWriter,
} from '../../../../src/engine/codec/stored-fields/stored-fields-writer.js';
import { ErrorCode, YarrowError } from '../../../../src/engine/errors.js';
import { assertEveryFlipIsCorrupt, assertTruncationIsCorrupt, assertYarrowError } from '../corruption.js';

/** A file read by position over `bytes`, counting the bytes each read returns. */
function positional(bytes: Uint8Array, name = 'seg-p.fdt'): RandomAccessFile & { bytesRead: number } {
  return {
    name,
    size: bytes.length,
    bytesRead: 0,
    read(target: Uint8Array, position: number): number {
      const part = bytes.subarray(position, Math.min(bytes.length, position + target.length));
      target.set(part);
      this.bytesRead += part.length;
      return part.length;
    },
    close(): void {},
  };
}

function sample(): Uint8Array {
  const w = new StoredFieldsWriter({ blockBytes: 200 });
  for (let i = 0; i < 40; i++) w.add({ _id: String(i), n: i, tags: ['a', 'b'] });
  return w.finish();
}

/** A version-1 file as the zlib writer produced it (blocks of `perBlock` docs), for the reader's backward path. */
function versionOne(docs: readonly string[], perBlock: number): Uint8Array {
  const w = new ByteWriter();
  writeHeader(w, STORED_FIELDS_MAGIC, STORED_FIELDS_VERSION_DEFLATE);
  const counts: number[] = [];
  const lengths: number[] = [];
  for (let at = 0; at < docs.length; at += perBlock) {
    const texts = docs.slice(at, at + perBlock).map((d) => new TextEncoder().encode(d));
    const block = new ByteWriter();
    block.writeVarint(texts.length);
    for (const t of texts) block.writeVarint(t.length);
    for (const t of texts) block.writeBytes(t);
    const compressed = deflateRawSync(block.view(), { level: 1 });
    w.writeBytes(compressed);
    counts.push(texts.length);
    lengths.push(compressed.length);
  }
  const indexOffset = w.length;
  w.writeVarint(counts.length);
  counts.forEach((c, b) => {
    w.writeVarint(c);
    w.writeVarint(lengths[b]);
  });
  w.writeFloat64(indexOffset);
  writeFooter(w);
  return w.toBytes();
}

/** `bytes` with its footer checksum recomputed, so damage inside passes the checksum and reaches the decoder. */
function resealed(bytes: Uint8Array): Uint8Array {
  const w = new ByteWriter();
  w.writeBytes(bytes.subarray(0, bytes.length - FOOTER_LENGTH));
  writeFooter(w);
  return w.toBytes();
}

describe('StoredFieldsReader', () => {
  it('fails with corrupt_index naming the file when any byte is flipped or the file is cut', () => {
    const bytes = sample();
    assertEveryFlipIsCorrupt(bytes, (b) => StoredFieldsReader.open(b, 'seg-2.fdt'), 'seg-2.fdt');
    assertTruncationIsCorrupt(bytes, (b) => StoredFieldsReader.open(b, 'seg-2.fdt'), 'seg-2.fdt');
  });

  it('fails with incompatible_format on a format version it does not know', () => {
    const w = new ByteWriter();
    writeHeader(w, STORED_FIELDS_MAGIC, STORED_FIELDS_VERSION + 1);
    w.writeVarint(0);
    w.writeFloat64(8);
    writeFooter(w);
    assertYarrowError(() => StoredFieldsReader.open(w.toBytes(), 'seg-2.fdt'), ErrorCode.incompatibleFormat, 'seg-2.fdt');
  });

  it('fails with corrupt_index on a checksummed block that does not decompress', () => {
    const w = new ByteWriter();
    writeHeader(w, STORED_FIELDS_MAGIC, STORED_FIELDS_VERSION);
    w.writeBytes(Uint8Array.of(0x0f, 0xff, 0xff)); // 15 + 255 + 255 literals announced, none follow
    w.writeVarint(1);
    w.writeVarint(1);
    w.writeVarint(3);
    w.writeVarint(40);
    w.writeFloat64(11);
    writeFooter(w);
    const r = StoredFieldsReader.open(w.toBytes(), 'seg-2.fdt', new DecodedBlockCache());
    assertYarrowError(() => r.get(0), ErrorCode.corruptIndex, 'seg-2.fdt');
    assertYarrowError(() => r.get(0), ErrorCode.corruptIndex, 'seg-2.fdt');
  });

  it('fails with corrupt_index, never another error, on damaged blocks that pass the checksum', () => {
    const docs = Array.from({ length: 60 }, (_, i) => JSON.stringify({ _id: `pkg-${i}`, summary: `a package that does thing number ${i % 7}` }));
    const w = new StoredFieldsWriter({ blockBytes: 500 });
    for (const d of docs) w.addRaw(d);
    const bytes = w.finish();
    const r = StoredFieldsReader.open(bytes, 'seg-3.fdt');
    const indexOffset = new DataView(bytes.buffer, bytes.byteOffset).getFloat64(bytes.length - FOOTER_LENGTH - 8, true);
    fc.assert(
      fc.property(fc.integer({ min: 8, max: indexOffset - 1 }), fc.integer({ min: 1, max: 255 }), fc.array(fc.nat({ max: docs.length - 1 }), { minLength: 1, maxLength: 10 }), (at, mask, reads) => {
        const damaged = bytes.slice();
        damaged[at] ^= mask;
        const dr = StoredFieldsReader.open(resealed(damaged), 'seg-3.fdt', new DecodedBlockCache());
        for (const d of reads) {
          try {
            const text = dr.getRaw(d);
            assert.equal(typeof text, 'string');
          } catch (err) {
            assert.ok(err instanceof YarrowError && err.code === ErrorCode.corruptIndex, String(err));
            assert.ok(err.message.includes('seg-3.fdt'));
          }
        }
      }),
      { numRuns: 400 },
    );
    assert.equal(r.getRaw(59), docs[59]);
  });

  it('serves consecutive reads from one block and switches blocks on demand', () => {
    const r = StoredFieldsReader.open(sample(), 'seg-2.fdt');
    assert.equal(r.count, 40);
    for (const i of [0, 1, 39, 2, 20, 38]) assert.deepEqual(r.get(i), { _id: String(i), n: i, tags: ['a', 'b'] });
    assert.throws(() => r.getRaw(40), RangeError);
    assert.throws(() => r.getRaw(-1), RangeError);
  });

  it('reads version-1 (zlib) files, as indexes written before version 2 hold', () => {
    fc.assert(
      fc.property(fc.array(fc.json(), { maxLength: 50 }), fc.integer({ min: 1, max: 9 }), (values, perBlock) => {
        const docs = values.map((v, i) => JSON.stringify({ _id: String(i), v: JSON.parse(v) as unknown }));
        const r = StoredFieldsReader.open(versionOne(docs, perBlock), 'seg-1.fdt', new DecodedBlockCache());
        assert.equal(r.count, docs.length);
        for (let i = docs.length - 1; i >= 0; i--) assert.equal(r.getRaw(i), docs[i]);
      }),
      { numRuns: 50 },
    );
    const damaged = versionOne(['{"a":1}', '{"b":2}'], 1);
    damaged[9] ^= 0xff;
    assertYarrowError(() => StoredFieldsReader.open(resealed(damaged), 'seg-1.fdt').get(0), ErrorCode.corruptIndex, 'seg-1.fdt');
  });

  it('opens the version-1 files of the golden index and returns their documents', () => {
    const file = (name: string): Uint8Array => readFileSync(new URL(`../../../fixtures/golden-v1/${name}`, import.meta.url));
    const first = file('seg-000000.fdt');
    assert.equal(new DataView(first.buffer, first.byteOffset).getUint32(4, true), STORED_FIELDS_VERSION_DEFLATE);
    const docs = [first, file('seg-000001.fdt')].flatMap((bytes, s) => {
      const r = StoredFieldsReader.open(bytes, `seg-00000${s}.fdt`, new DecodedBlockCache());
      return Array.from({ length: r.count }, (_, d) => r.get(d));
    });
    assert.ok(docs.length >= 3);
    assert.ok(docs.every((d) => typeof d._id === 'string'));
    assert.ok(docs.some((d) => d._id === 'b' && d.year === 1921), JSON.stringify(docs));
  });

  it('keeps randomly read blocks in the pool and a read in order out of it', () => {
    const pool = new DecodedBlockCache(1 << 20);
    const w = new StoredFieldsWriter({ blockBytes: 100 });
    for (let i = 0; i < 200; i++) w.add({ _id: String(i), text: 'x'.repeat(i % 30) });
    const bytes = w.finish();
    const scan = StoredFieldsReader.open(bytes, 'seg-4.fdt', pool);
    for (let i = 0; i < scan.count; i++) assert.equal(scan.get(i)._id, String(i));
    assert.equal(pool.size, 1, 'a scan in order pools only the block it started with');
    const r = StoredFieldsReader.open(bytes, 'seg-4.fdt', pool);
    for (const i of [150, 3, 77, 150, 3]) assert.equal(r.get(i)._id, String(i));
    assert.equal(pool.size, 4);
  });
});

describe('StoredFieldsReader.openFile (blocks read by position)', () => {
  it('returns what the in-memory reader returns, in any order, reading only the index at open and one block per miss', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 120 }), { minLength: 1, maxLength: 120 }), fc.integer({ min: 64, max: 600 }), fc.array(fc.nat(), { maxLength: 80 }), (texts, blockBytes, picks) => {
        const w = new StoredFieldsWriter({ blockBytes });
        texts.forEach((text, i) => w.add({ _id: String(i), text }));
        const bytes = w.finish();
        const memory = StoredFieldsReader.open(bytes, 'seg-p.fdt', new DecodedBlockCache());
        const file = positional(bytes);
        const onFile = StoredFieldsReader.openFile(file, 'seg-p.fdt', new DecodedBlockCache());
        const atOpen = file.bytesRead;
        assert.equal(onFile.count, memory.count);
        for (const p of picks) assert.equal(onFile.getRaw(p % texts.length), memory.getRaw(p % texts.length));
        for (let d = 0; d < texts.length; d++) assert.equal(onFile.getRaw(d), memory.getRaw(d));
        // At open: the header, the index offset and the block index, never a block.
        const indexOffset = new DataView(bytes.buffer, bytes.byteOffset).getFloat64(bytes.length - FOOTER_LENGTH - 8, true);
        assert.equal(atOpen, 8 + 8 + (bytes.length - FOOTER_LENGTH - indexOffset));
      }),
      { numRuns: 60 },
    );
  });

  it('keeps a decoded block in the pool, so a hit reads nothing from the file', () => {
    const w = new StoredFieldsWriter({ blockBytes: 100 });
    for (let i = 0; i < 200; i++) w.add({ _id: String(i), text: 'y'.repeat(i % 40) });
    const file = positional(w.finish());
    const r = StoredFieldsReader.openFile(file, 'seg-p.fdt', new DecodedBlockCache(1 << 20));
    assert.equal(r.get(150)._id, '150');
    const afterMiss = file.bytesRead;
    assert.equal(r.get(3)._id, '3');
    assert.ok(file.bytesRead > afterMiss, 'another block is read from the file');
    const afterSecondMiss = file.bytesRead;
    assert.equal(r.get(150)._id, '150');
    assert.equal(r.get(3)._id, '3');
    assert.equal(file.bytesRead, afterSecondMiss, 'pooled blocks are not read again');
  });

  it('reads version-1 (zlib) files by position', () => {
    const docs = Array.from({ length: 30 }, (_, i) => JSON.stringify({ _id: String(i), v: 'z'.repeat(i) }));
    const r = StoredFieldsReader.openFile(positional(versionOne(docs, 4)), 'seg-1.fdt', new DecodedBlockCache());
    for (let i = docs.length - 1; i >= 0; i--) assert.equal(r.getRaw(i), docs[i]);
  });

  it('fails with corrupt_index naming the file on a cut file or a bad index offset', () => {
    const bytes = sample();
    assertYarrowError(() => StoredFieldsReader.openFile(positional(bytes.subarray(0, 10)), 'seg-c.fdt'), ErrorCode.corruptIndex, 'seg-c.fdt');
    const shifted = bytes.slice();
    new DataView(shifted.buffer).setFloat64(shifted.length - FOOTER_LENGTH - 8, shifted.length, true);
    assertYarrowError(() => StoredFieldsReader.openFile(positional(shifted), 'seg-c.fdt'), ErrorCode.corruptIndex, 'seg-c.fdt');
    // A block that does not decompress (the file changed under the reader) is corrupt_index too.
    const damaged = bytes.slice();
    damaged.fill(0xff, 9, 30);
    assertYarrowError(() => StoredFieldsReader.openFile(positional(damaged), 'seg-c.fdt', new DecodedBlockCache()).get(0), ErrorCode.corruptIndex, 'seg-c.fdt');
  });
});

describe('DecodedBlockCache', () => {
  const block = (b: number, bytes: number): { block: number; data: Uint8Array; starts: null; cursor: null } => ({ block: b, data: new Uint8Array(bytes), starts: null, cursor: null });

  it('evicts the least recently used blocks to stay within its byte budget', () => {
    const cache = new DecodedBlockCache(100);
    cache.set(1, block(1, 40));
    cache.set(2, block(2, 40));
    assert.equal(cache.get(1)?.block, 1); // 1 is now the most recent
    cache.set(3, block(3, 40));
    assert.equal(cache.get(2), undefined);
    assert.equal(cache.get(1)?.block, 1);
    assert.equal(cache.get(3)?.block, 3);
    assert.equal(cache.bytes, 80);
    cache.set(4, block(4, 101)); // larger than the budget: never kept
    assert.equal(cache.get(4), undefined);
    assert.equal(cache.bytes, 80);
    cache.set(1, block(1, 10));
    assert.equal(cache.bytes, 50);
    cache.delete(3);
    assert.deepEqual([cache.size, cache.bytes], [1, 10]);
    cache.clear();
    assert.deepEqual([cache.size, cache.bytes], [0, 0]);
  });
});
