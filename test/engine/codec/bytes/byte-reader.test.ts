import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ByteReader } from '../../../../src/engine/codec/bytes/byte-reader.js';
import { ByteWriter } from '../../../../src/engine/codec/bytes/byte-writer.js';
import { ErrorCode, YarrowError } from '../../../../src/engine/errors.js';

function isCorrupt(error: unknown): boolean {
  return error instanceof YarrowError && error.code === ErrorCode.corruptIndex;
}

describe('ByteReader', () => {
  it('starts at the given offset and seeks by assigning pos', () => {
    const r = new ByteReader(Uint8Array.of(9, 8, 7, 6), 2);
    assert.equal(r.readByte(), 7);
    r.pos = 0;
    assert.equal(r.readByte(), 9);
  });

  it('returns readBytes as a view of the input, not a copy', () => {
    const bytes = Uint8Array.of(1, 2, 3, 4);
    const r = new ByteReader(bytes, 1);
    const sub = r.readBytes(2);
    bytes[1] = 42;
    assert.deepEqual([...sub], [42, 3]);
    assert.equal(sub.buffer, bytes.buffer);
    assert.equal(r.pos, 3);
  });

  it('reads from a subarray that does not start at its buffer start', () => {
    const w = new ByteWriter();
    w.writeByte(0xaa);
    w.writeFloat64(-2.5);
    w.writeUint32(0xdeadbeef);
    const r = new ByteReader(w.toBytes().subarray(1));
    assert.equal(r.readFloat64(), -2.5);
    assert.equal(r.readUint32(), 0xdeadbeef);
    assert.ok(r.eof());
  });

  it('fails with corrupt_index instead of reading past the end', () => {
    const truncatedVarint = Uint8Array.of(0x80, 0x80);
    const cases: [string, (r: ByteReader) => unknown, Uint8Array][] = [
      ['readByte', (r) => r.readByte(), new Uint8Array(0)],
      ['readBytes', (r) => r.readBytes(3), Uint8Array.of(1, 2)],
      ['readUint32', (r) => r.readUint32(), Uint8Array.of(1, 2, 3)],
      ['readFloat64', (r) => r.readFloat64(), new Uint8Array(7)],
      ['readVarint (empty)', (r) => r.readVarint(), new Uint8Array(0)],
      ['readVarint (unterminated)', (r) => r.readVarint(), truncatedVarint],
      ['readVarint (unterminated, wide)', (r) => r.readVarint(), Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff)],
      ['readZigzag', (r) => r.readZigzag(), Uint8Array.of(0x81)],
      ['readString', (r) => r.readString(), Uint8Array.of(5, 0x61)],
    ];
    for (const [name, read, bytes] of cases) assert.throws(() => read(new ByteReader(bytes)), isCorrupt, name);
  });

  it('rejects a varint longer than 8 bytes', () => {
    assert.throws(() => new ByteReader(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01)).readVarint(), isCorrupt);
  });

  it('reports eof only after the last byte', () => {
    const r = new ByteReader(Uint8Array.of(1));
    assert.equal(r.eof(), false);
    r.readByte();
    assert.equal(r.eof(), true);
  });
});
