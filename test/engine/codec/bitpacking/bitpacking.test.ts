import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BLOCK_SIZE, MAX_NARROW_BITS, bitsRequired, packBlock, packNarrowInto, packedBytes, unpackBlock } from '../../../../src/engine/codec/bitpacking/bitpacking.js';
import { ByteWriter } from '../../../../src/engine/codec/bytes/byte-writer.js';
import { ErrorCode, YarrowError } from '../../../../src/engine/errors.js';

/** Values of exactly `bits` bits at most, with the top value present so the width is tight. */
function blockOf(bits: number, count: number, seed: number): Uint32Array {
  const values = new Uint32Array(count);
  let x = seed | 1;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    values[i] = bits === 32 ? x >>> 0 : (x >>> 0) % 2 ** bits;
  }
  if (bits > 0) values[seed % count] = 2 ** bits - 1;
  return values;
}

describe('bitsRequired', () => {
  it('returns the width of the largest value, 0 when all are 0', () => {
    assert.equal(bitsRequired(new Uint32Array(5), 5), 0);
    assert.equal(bitsRequired(Uint32Array.of(1), 1), 1);
    assert.equal(bitsRequired(Uint32Array.of(3, 4), 2), 3);
    assert.equal(bitsRequired(Uint32Array.of(0xffff_ffff), 1), 32);
    assert.equal(bitsRequired(Uint32Array.of(1, 0xffff), 1), 1, 'looks only at the first count values');
  });

  it('is the smallest width every value fits in', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { minLength: 1, maxLength: 128 }), (arr) => {
        const bits = bitsRequired(Uint32Array.from(arr), arr.length);
        const max = Math.max(...arr);
        assert.ok(max < 2 ** bits);
        if (bits > 0) assert.ok(max >= 2 ** (bits - 1));
      }),
    );
  });
});

describe('packBlock', () => {
  it('writes ceil(count*bits/8) bytes', () => {
    for (let bits = 0; bits <= 32; bits++) {
      for (const count of [1, 7, 64, 127, 128]) {
        const w = new ByteWriter();
        packBlock(w, blockOf(bits, count, 7), count, bits);
        assert.equal(w.length, Math.ceil((count * bits) / 8), `bits ${bits} count ${count}`);
        assert.equal(packedBytes(count, bits), w.length);
      }
    }
  });

  it('lays values out as a little-endian bit stream, low bits first', () => {
    const w = new ByteWriter();
    packBlock(w, Uint32Array.of(1, 2, 3, 4, 5), 5, 3);
    // 001 010 011 100 101 -> bits (LSB first): 1,0,0, 0,1,0, 1,1,0, 0,0,1, 1,0,1
    assert.deepEqual([...w.toBytes()], [0b1101_0001, 0b0101_1000]);
  });

  it('rejects a value wider than the bit width and a block longer than BLOCK_SIZE', () => {
    assert.throws(() => { packBlock(new ByteWriter(), Uint32Array.of(8), 1, 3); }, RangeError);
    assert.throws(() => { packBlock(new ByteWriter(), new Uint32Array(BLOCK_SIZE + 1), BLOCK_SIZE + 1, 1); }, RangeError);
  });
});

describe('unpackBlock', () => {
  it('round-trips every width 0..32 and every count 1..128', () => {
    const out = new Uint32Array(BLOCK_SIZE);
    for (let bits = 0; bits <= 32; bits++) {
      for (let count = 1; count <= BLOCK_SIZE; count++) {
        const values = blockOf(bits, count, bits * 131 + count);
        const w = new ByteWriter();
        w.writeByte(0xee); // odd start offset, as in real files
        packBlock(w, values, count, bits);
        w.writeByte(0xff); // trailing bytes must not leak into the last value
        const bytes = w.toBytes();
        out.fill(0xabcd);
        const end = unpackBlock(bytes, 1, count, bits, out);
        assert.equal(end, bytes.length - 1, `end offset, bits ${bits} count ${count}`);
        assert.deepEqual(out.subarray(0, count), values, `bits ${bits} count ${count}`);
        assert.equal(out[count] ?? 0xabcd, 0xabcd, 'writes nothing past count');
      }
    }
  });

  it('round-trips random blocks packed back to back', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { minLength: 1, maxLength: BLOCK_SIZE }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 3 }),
        (blocks, skew) => {
          const w = new ByteWriter();
          for (let i = 0; i < skew; i++) w.writeByte(i);
          const widths: number[] = [];
          for (const b of blocks) {
            const values = Uint32Array.from(b, (v) => v >>> (b.length % 32));
            const bits = bitsRequired(values, values.length);
            widths.push(bits);
            packBlock(w, values, values.length, bits);
          }
          const bytes = w.toBytes();
          const out = new Uint32Array(BLOCK_SIZE);
          let offset = skew;
          blocks.forEach((b, i) => {
            offset = unpackBlock(bytes, offset, b.length, widths[i], out);
            assert.deepEqual([...out.subarray(0, b.length)], b.map((v) => v >>> (b.length % 32)));
          });
          assert.equal(offset, bytes.length);
        },
      ),
    );
  });

  it('fails with corrupt_index when the block runs past the data', () => {
    assert.throws(
      () => unpackBlock(new Uint8Array(10), 0, 128, 1, new Uint32Array(128)),
      (error: unknown) => error instanceof YarrowError && error.code === ErrorCode.corruptIndex,
    );
  });
});

describe('packNarrowInto', () => {
  it('writes the bytes of packBlock at any offset of a buffer and returns the position after them', () => {
    for (let bits = 0; bits <= MAX_NARROW_BITS; bits++) {
      for (const count of [1, 2, 5, 64, 127, 128]) {
        const values = blockOf(bits, count, bits * 131 + count);
        const w = new ByteWriter();
        packBlock(w, values, count, bits);
        const buf = new Uint8Array(3 + packedBytes(count, bits) + 2).fill(0xaa);
        const end = packNarrowInto(buf, 3, values, count, bits);
        assert.equal(end, 3 + w.length, `bits ${bits} count ${count}`);
        assert.deepEqual(buf.subarray(3, end), w.view(), `bits ${bits} count ${count}`);
        assert.deepEqual([...buf.subarray(0, 3), ...buf.subarray(end)], [0xaa, 0xaa, 0xaa, 0xaa, 0xaa], 'bytes around it untouched');
      }
    }
  });

  it('rejects a value wider than the bit width', () => {
    assert.throws(() => packNarrowInto(new Uint8Array(8), 0, Uint32Array.of(1, 8), 2, 3), RangeError);
  });
});
