import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readPackedArray, writePackedArray } from '../../../../src/engine/codec/bitpacking/packed-array.js';
import { ByteReader } from '../../../../src/engine/codec/bytes/byte-reader.js';
import { ByteWriter } from '../../../../src/engine/codec/bytes/byte-writer.js';

describe('writePackedArray', () => {
  it('round-trips arrays of any length through readPackedArray', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 2 ** 32 - 1 })), { maxLength: 700 }), (arr) => {
        const w = new ByteWriter();
        writePackedArray(w, Uint32Array.from(arr), arr.length);
        w.writeByte(0x5a);
        const r = new ByteReader(w.toBytes());
        const out = new Uint32Array(arr.length);
        readPackedArray(r, arr.length, out);
        assert.deepEqual([...out], arr);
        assert.equal(r.readByte(), 0x5a);
      }),
    );
  });

  it('gives each block of 128 its own width', () => {
    const values = new Uint32Array(256);
    values[200] = 0xffff;
    const w = new ByteWriter();
    writePackedArray(w, values, values.length);
    // block 0: width byte 0, no data; block 1: width byte 16, 256 bytes
    assert.equal(w.length, 1 + 1 + 256);
  });
});
