import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { StoredFieldsReader } from '../../../../src/engine/codec/stored-fields/stored-fields-reader.js';
import { StoredFieldsWriter } from '../../../../src/engine/codec/stored-fields/stored-fields-writer.js';
import { corpusBytes } from '../../../helpers/corpus-sample.js';

/** The first `count` lines of a real corpus. */
function corpusLines(file: string, count: number): string[] {
  return corpusBytes(file).toString('utf8').split('\n', count).filter((l) => l.length > 0);
}

const jsonObject = fc.dictionary(fc.string({ unit: 'binary', maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });

describe('StoredFieldsWriter', () => {
  it('round-trips random JSON objects across many blocks, in random access order', () => {
    fc.assert(
      fc.property(fc.array(jsonObject, { maxLength: 120 }), fc.integer({ min: 1, max: 2048 }), fc.array(fc.nat()), (docs, blockBytes, probes) => {
        const w = new StoredFieldsWriter({ blockBytes, maxDocsPerBlock: 16 });
        docs.forEach((doc, i) => { assert.equal(w.add(doc), i); });
        assert.equal(w.count, docs.length);
        const r = StoredFieldsReader.open(w.finish(), 'seg.fdt');
        assert.equal(r.count, docs.length);
        // JSON loses -0 and key order of integer-like keys; compare with what JSON itself yields.
        const expected = docs.map((d) => JSON.parse(JSON.stringify(d)) as unknown);
        for (let i = docs.length - 1; i >= 0; i--) assert.deepEqual(r.get(i), expected[i]);
        for (const p of probes) {
          if (docs.length === 0) break;
          const i = p % docs.length;
          assert.equal(r.getRaw(i), JSON.stringify(docs[i]));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('keeps raw JSON text byte for byte', () => {
    const w = new StoredFieldsWriter();
    const raw = ['{"b": 1,   "a":[1e3]}', '{"title":"😀 é \\u00e9"}', '{}'];
    for (const json of raw) w.addRaw(json);
    const r = StoredFieldsReader.open(w.finish(), 'seg.fdt');
    raw.forEach((json, i) => { assert.equal(r.getRaw(i), json); });
    assert.deepEqual(r.get(1), { title: '😀 é é' });
  });

  it('compresses similar documents well below their JSON size across the default 16 KiB blocks', () => {
    const w = new StoredFieldsWriter();
    let raw = 0;
    for (let i = 0; i < 5000; i++) {
      const json = JSON.stringify({ _id: `pkg-${i}`, name: `package number ${i}`, version: `1.${i % 10}.0`, description: 'A library that does useful things for you' });
      raw += json.length;
      w.addRaw(json);
    }
    const bytes = w.finish();
    assert.ok(bytes.length < raw / 4, `${bytes.length} vs ${raw}`);
    const r = StoredFieldsReader.open(bytes, 'seg.fdt');
    assert.equal(r.get(4321)._id, 'pkg-4321');
    assert.equal(r.get(7)._id, 'pkg-7');
  });

  it('stores UTF-8 bytes given as bytes exactly as the same text given as a string', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.array(jsonObject, { maxLength: 80 }), fc.integer({ min: 1, max: 600 }), (docs, blockBytes) => {
        const texts = docs.map((d) => JSON.stringify(d));
        const fromStrings = new StoredFieldsWriter({ blockBytes, maxDocsPerBlock: 8 });
        const fromBytes = new StoredFieldsWriter({ blockBytes, maxDocsPerBlock: 8 });
        for (const text of texts) {
          fromStrings.addRaw(text);
          // The bytes sit inside a larger array, as a document's bytes inside an input line.
          const bytes = encoder.encode(` ${text}\n`);
          fromBytes.addRawBytes(bytes, 1, bytes.length - 1);
        }
        const file = fromStrings.finish();
        assert.deepEqual(fromBytes.finish(), file);
        const r = StoredFieldsReader.open(file, 'seg.fdt');
        texts.forEach((text, i) => { assert.equal(r.getRaw(i), text); });
      }),
      { numRuns: 60 },
    );

  it('stores documents written in place, piece by piece and across block growth, exactly as the same bytes handed over', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.array(jsonObject, { maxLength: 80 }), fc.integer({ min: 1, max: 600 }), fc.integer({ min: 1, max: 40 }), (docs, blockBytes, piece) => {
        const handed = new StoredFieldsWriter({ blockBytes, maxDocsPerBlock: 8 });
        const inPlace = new StoredFieldsWriter({ blockBytes, maxDocsPerBlock: 8 });
        // A document larger than the block's first size, so that the block grows while one is half written.
        const all = [...docs, { big: 'é'.repeat(2000 + blockBytes) }, ...docs];
        for (const [i, doc] of all.entries()) {
          const bytes = encoder.encode(JSON.stringify(doc));
          handed.addRawBytes(bytes);
          // An abandoned attempt first (the line reader's line that takes the general path): it must leave no trace.
          inPlace.reserveRaw(0, 3);
          inPlace.rawBlock.set([0x7b, 0x7b, 0x7b], inPlace.rawStart);
          // Then the document in pieces of `piece` bytes, asking for room before each, as the reader does.
          let written = 0;
          while (written < bytes.length) {
            const n = Math.min(piece, bytes.length - written);
            inPlace.reserveRaw(written, n);
            inPlace.rawBlock.set(bytes.subarray(written, written + n), inPlace.rawStart + written);
            written += n;
          }
          assert.equal(inPlace.addWritten(written), i);
        }
        assert.deepEqual(inPlace.finish(), handed.finish());
      }),
      { numRuns: 60 },
    );
  });
  });

  it('grows its block for a document larger than a block and keeps the ones around it', () => {
    const w = new StoredFieldsWriter({ blockBytes: 256 });
    const big = JSON.stringify({ text: 'é😀x'.repeat(20_000) });
    const docs = ['{"a":1}', big, '{"b":2}', big, '{"c":3}'];
    for (const d of docs) w.addRaw(d);
    const r = StoredFieldsReader.open(w.finish(), 'seg.fdt');
    docs.forEach((d, i) => { assert.equal(r.getRaw(i), d); });
  });

  it('round-trips documents that put its blocks at the sizes where the compressor changes its rules', () => {
    // Default 16 KiB blocks; documents of random (incompressible) text, of one repeated character,
    // tiny ones, and ones that end a block just under, at and over 16 KiB and 64 KiB (a block
    // over 64 KiB is matched in two windows), each read back through the reader.
    const random = (n: number, seed: number): string => fc.sample(fc.string({ unit: 'grapheme-ascii', minLength: n, maxLength: n }), { numRuns: 1, seed })[0];
    const doc = (body: string): string => JSON.stringify({ t: body });
    const overhead = doc('').length;
    const docs: string[] = [];
    for (const size of [1, 12, 13, 16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1, 65_535, 65_536, 65_537, 70_000, 140_000]) {
      const n = Math.max(0, size - overhead);
      docs.push(doc(random(n, size)), doc('x'.repeat(n)), '{}', doc(random(n, size + 1).slice(0, n >> 1) + 'y'.repeat(n - (n >> 1))));
    }
    for (let i = 0; i < 2000; i++) docs.push(`{"_id":"pkg-${i}","name":"${random(i % 40, i)}"}`);
    const w = new StoredFieldsWriter();
    for (const d of docs) w.addRaw(d);
    const r = StoredFieldsReader.open(w.finish(), 'seg.fdt');
    assert.equal(r.count, docs.length);
    for (let i = docs.length - 1; i >= 0; i--) assert.equal(r.getRaw(i), docs[i], `doc ${i}`);
  });

  it('round-trips package metadata from both corpora as the bulk loader stores it', () => {
    for (const file of ['npm-packages.jsonl.gz', 'debian-packages.jsonl.gz']) {
      const lines = corpusLines(file, 3000);
      const w = new StoredFieldsWriter();
      for (const line of lines) w.addRaw(line);
      const bytes = w.finish();
      assert.ok(bytes.length < 0.6 * lines.reduce((s, l) => s + Buffer.byteLength(l), 0));
      const r = StoredFieldsReader.open(bytes, 'seg.fdt');
      for (let i = lines.length - 1; i >= 0; i -= 7) assert.equal(r.getRaw(i), lines[i]);
    }
  });

  it('writes a readable file with no documents', () => {
    const r = StoredFieldsReader.open(new StoredFieldsWriter().finish(), 'empty.fdt');
    assert.equal(r.count, 0);
    assert.throws(() => r.get(0), RangeError);
  });
});
