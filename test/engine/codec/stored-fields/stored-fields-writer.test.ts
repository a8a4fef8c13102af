import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { StoredFieldsReader } from '../../../../src/engine/codec/stored-fields/stored-fields-reader.js';
import { StoredFieldsWriter } from '../../../../src/engine/codec/stored-fields/stored-fields-writer.js';

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

  it('writes a readable file with no documents', () => {
    const r = StoredFieldsReader.open(new StoredFieldsWriter().finish(), 'empty.fdt');
    assert.equal(r.count, 0);
    assert.throws(() => r.get(0), RangeError);
  });
});
