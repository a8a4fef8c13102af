import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeNorms } from '../../../../src/engine/codec/norms/norms-reader.js';
import { encodeNorms } from '../../../../src/engine/codec/norms/norms-writer.js';

const normsArbitrary = fc.integer({ min: 0, max: 300 }).chain((maxDoc) =>
  fc.tuple(
    fc.constant(maxDoc),
    fc.uniqueArray(
      fc.tuple(
        fc.string({ unit: 'binary', maxLength: 12 }),
        fc.oneof(fc.uint8Array({ minLength: maxDoc, maxLength: maxDoc }), fc.integer({ min: 0, max: 255 }).map((v) => new Uint8Array(maxDoc).fill(v))),
      ),
      { selector: ([name]) => name, maxLength: 5 },
    ),
  ),
);

describe('encodeNorms', () => {
  it('round-trips any fields and maxDoc through decodeNorms', () => {
    fc.assert(
      fc.property(normsArbitrary, ([maxDoc, entries]) => {
        const fields = new Map(entries);
        const decoded = decodeNorms(encodeNorms(fields, maxDoc), 'seg.nrm');
        assert.deepEqual([...decoded.keys()], [...fields.keys()]);
        for (const [name, norms] of fields) assert.deepEqual([...decoded.get(name)!], [...norms]);
      }),
    );
  });

  it('stores a field whose docs all share one norm in constant space', () => {
    const dense = encodeNorms(new Map([['title', Uint8Array.from({ length: 1000 }, (_, i) => i % 7)]]), 1000);
    const constant = encodeNorms(new Map([['title', new Uint8Array(1000).fill(9)]]), 1000);
    assert.ok(dense.length > 1000);
    assert.ok(constant.length < 40);
  });

  it('rejects a field whose norms do not have maxDoc entries', () => {
    assert.throws(() => encodeNorms(new Map([['a', new Uint8Array(3)]]), 4), RangeError);
  });
});
