import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteReader } from '../../../../src/engine/codec/bytes/byte-reader.js';
import { ByteWriter, putStringFrom, putVarint, stringRoom, varintSize } from '../../../../src/engine/codec/bytes/byte-writer.js';

const MAX = Number.MAX_SAFE_INTEGER;
const varintEdges = [0, 1, 127, 128, 16383, 16384, 2 ** 28 - 1, 2 ** 28, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 35, 2 ** 49 - 1, 2 ** 49, 2 ** 52, MAX - 1, MAX];

describe('ByteWriter', () => {
  it('round-trips varints across the whole range [0, 2^53)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...varintEdges), fc.nat(), fc.integer({ min: 0, max: MAX }))), (values) => {
        const w = new ByteWriter(1);
        for (const v of values) w.writeVarint(v);
        const r = new ByteReader(w.view());
        for (const v of values) assert.equal(r.readVarint(), v);
        assert.ok(r.eof());
      }),
    );
  });

  it('writes varints as LEB128 with the length varintSize reports', () => {
    for (const v of varintEdges) {
      const w = new ByteWriter();
      w.writeVarint(v);
      const bytes = w.toBytes();
      assert.equal(bytes.length, varintSize(v), `size of ${v}`);
      let decoded = 0;
      bytes.forEach((b, i) => (decoded += (b & 0x7f) * 2 ** (7 * i)));
      assert.equal(decoded, v);
      bytes.forEach((b, i) => { assert.equal(b >= 0x80, i < bytes.length - 1); });
    }
  });

  it('rejects varints that are negative, fractional or 2^53 and above', () => {
    for (const v of [-1, 0.5, 2 ** 53, Infinity, NaN]) assert.throws(() => { new ByteWriter().writeVarint(v); }, RangeError, String(v));
  });

  it('round-trips zigzag integers including both safe-integer edges', () => {
    const edges = [0, -1, 1, -63, 63, -64, 64, -65, 2 ** 31, -(2 ** 31), 2 ** 52, -(2 ** 52), MAX, -MAX, MAX - 1, -MAX + 1];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...edges), fc.integer(), fc.maxSafeInteger())), (values) => {
        const w = new ByteWriter(1);
        for (const v of values) w.writeZigzag(v);
        const r = new ByteReader(w.view());
        for (const v of values) assert.equal(r.readZigzag(), v);
        assert.ok(r.eof());
      }),
    );
  });

  it('writes zigzag as LEB128 of 2v or -2v-1, so small magnitudes take one byte', () => {
    const cases: [number, number[]][] = [
      [0, [0]],
      [-1, [1]],
      [1, [2]],
      [-64, [127]],
      [64, [0x80, 0x01]],
      [-65, [0x81, 0x01]],
    ];
    for (const [v, expected] of cases) {
      const w = new ByteWriter();
      w.writeZigzag(v);
      assert.deepEqual([...w.toBytes()], expected, String(v));
    }
  });

  it('round-trips strings with astral characters, empty strings and long strings', () => {
    const str = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme', maxLength: 300 }), fc.string({ maxLength: 2000 }), fc.constant(''), fc.constant('😀𝄞a'.repeat(50)));
    fc.assert(
      fc.property(fc.array(str), (values) => {
        const w = new ByteWriter(1);
        for (const s of values) w.writeString(s);
        const r = new ByteReader(w.view());
        for (const s of values) assert.equal(r.readString(), s);
        assert.ok(r.eof());
      }),
    );
  });

  it('prefixes strings with their UTF-8 byte length', () => {
    const w = new ByteWriter();
    w.writeString('é😀');
    assert.deepEqual([...w.toBytes()], [6, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80]);
  });

  it('round-trips mixed primitives in one buffer', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 255 }), fc.double(), fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.uint8Array({ maxLength: 40 }), fc.string({ unit: 'binary' }))), (rows) => {
        const w = new ByteWriter(2);
        for (const [b, f, u, bytes, s] of rows) {
          w.writeByte(b);
          w.writeFloat64(f);
          w.writeUint32(u);
          w.writeVarint(bytes.length);
          w.writeBytes(bytes);
          w.writeUtf8(s);
          w.writeString(s);
        }
        const r = new ByteReader(w.toBytes());
        for (const [b, f, u, bytes, s] of rows) {
          assert.equal(r.readByte(), b);
          assert.ok(Object.is(r.readFloat64(), f));
          assert.equal(r.readUint32(), u);
          assert.deepEqual(r.readBytes(r.readVarint()), bytes);
          r.pos += Buffer.byteLength(s);
          assert.equal(r.readString(), s);
        }
        assert.ok(r.eof());
      }),
    );
  });

  it('writes uint32 and float64 little-endian', () => {
    const w = new ByteWriter();
    w.writeUint32(0x01020304);
    w.writeFloat64(1);
    assert.deepEqual([...w.view()], [4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f]);
  });

  it('returns a copy from toBytes and a live view from view', () => {
    const w = new ByteWriter(16);
    w.writeByte(1);
    const copy = w.toBytes();
    const view = w.view();
    w.reset();
    w.writeByte(2);
    assert.equal(copy[0], 1);
    assert.equal(view[0], 2);
    assert.equal(w.length, 1);
  });

  it('writes a string from an offset as writeString writes the slice, surrogates and non-ASCII included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), fc.nat(), (s, at) => {
        const from = s.length === 0 ? 0 : at % (s.length + 1);
        const a = new ByteWriter(1);
        a.writeByte(7);
        a.writeStringFrom(s, from);
        const b = new ByteWriter(1);
        b.writeByte(7);
        b.writeString(s.slice(from));
        assert.deepEqual(a.toBytes(), b.toBytes());
      }),
    );
  });

  it('writes ascending values as varints of their deltas, the bytes of writeVarint one by one', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 2 ** 32 - 1 }), { maxLength: 40 }), fc.nat({ max: 5 }), (raw, skip) => {
        const values = [...raw].sort((x, y) => x - y);
        const from = Math.min(skip, values.length);
        const a = new ByteWriter(1);
        a.writeVarintDeltas(values, from, values.length - from);
        const b = new ByteWriter(1);
        let prev = 0;
        for (const v of values.slice(from)) {
          b.writeVarint(v - prev);
          prev = v;
        }
        assert.deepEqual(a.toBytes(), b.toBytes());
      }),
    );
  });

  it('writes runs of ascending values, each run from 0, as writeVarintDeltas once per run does', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.nat({ max: 2 ** 32 - 1 }), { maxLength: 12 }), { maxLength: 20 }), fc.nat({ max: 3 }), (rawRuns, skip) => {
        const runs = rawRuns.map((r) => [...r].sort((x, y) => x - y));
        const values = [9, 8, 7, ...runs.flat()];
        const lengths = [5, 5, 5, ...runs.map((r) => r.length)];
        const runFrom = 3 + Math.min(skip, runs.length);
        const from = 3 + runs.slice(0, runFrom - 3).reduce((n, r) => n + r.length, 0);
        const total = runs.slice(runFrom - 3).reduce((n, r) => n + r.length, 0);
        const a = new ByteWriter(1);
        a.writeByte(1);
        a.writeVarintDeltaRuns(values, from, lengths, runFrom, runs.length - (runFrom - 3), total);
        const b = new ByteWriter(1);
        b.writeByte(1);
        for (let k = runFrom, at = from; k < lengths.length; at += lengths[k], k++) b.writeVarintDeltas(values, at, lengths[k]);
        assert.deepEqual(a.toBytes(), b.toBytes());
      }),
    );
  });

  it('encodes strings as TextEncoder does, from any code unit on: lone surrogates, pairs, long strings', () => {
    const unit = fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffd, 0xffff));
    const text = fc.oneof(
      fc.array(unit, { maxLength: 40 }).map((units) => String.fromCharCode(...units)),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.tuple(fc.string({ unit: 'binary', maxLength: 5 }), fc.nat({ max: 300 })).map(([s, n]) => 'x'.repeat(n) + s),
    );
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(text, fc.nat({ max: 6 }), (s, skip) => {
        const from = Math.min(skip, s.length);
        const w = new ByteWriter(1);
        w.writeStringFrom(s, from);
        const utf8 = encoder.encode(s.slice(from));
        const r = new ByteReader(w.view());
        assert.equal(r.readVarint(), utf8.length);
        assert.deepEqual(w.view().subarray(w.length - utf8.length), utf8);
      }),
      { numRuns: 2000 },
    );
  });

  it('copies a prefix of a byte array, short or long', () => {
    for (const n of [0, 1, 5, 32, 33, 200]) {
      const src = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) & 0xff);
      const w = new ByteWriter(1);
      w.writeByte(9);
      w.writeBytesOf(src, n);
      assert.deepEqual(w.toBytes(), Uint8Array.of(9, ...src.subarray(0, n)));
    }
  });

  it('writes through reserve, putVarint, putStringFrom and advance the bytes of writeVarint and writeStringFrom, growing as it goes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...varintEdges), fc.string({ unit: 'binary', maxLength: 200 }), fc.nat(5)), { maxLength: 30 }), (entries) => {
        const direct = new ByteWriter(16);
        const reserved = new ByteWriter(16);
        for (const [v, s, cut] of entries) {
          const from = Math.min(cut, s.length);
          direct.writeVarint(v);
          direct.writeStringFrom(s, from);
          const buf = reserved.reserve(8 + stringRoom(s.length - from));
          reserved.advance(putStringFrom(buf, putVarint(buf, reserved.length, v), s, from));
        }
        assert.deepEqual(reserved.toBytes(), direct.toBytes());
      }),
      { numRuns: 500 },
    );
  });
});
