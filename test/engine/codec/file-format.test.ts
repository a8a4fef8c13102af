import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 as zlibCrc32 } from 'node:zlib';
import fc from 'fast-check';
import { ByteWriter } from '../../../src/engine/codec/bytes/byte-writer.js';
import { FOOTER_LENGTH, HEADER_LENGTH, crc32, openChecked, verifyChecksum, writeFooter, writeHeader } from '../../../src/engine/codec/file-format.js';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { assertEveryFlipIsCorrupt, assertTruncationIsCorrupt, assertYarrowError } from './corruption.js';

function file(magic: string, version: number, body: Uint8Array): Uint8Array {
  const w = new ByteWriter();
  writeHeader(w, magic, version);
  w.writeBytes(body);
  writeFooter(w);
  return w.toBytes();
}

describe('crc32', () => {
  it('computes the IEEE CRC-32 (check value of "123456789" is 0xcbf43926)', () => {
    assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
    assert.equal(crc32(new Uint8Array(0)), 0);
  });
});

describe('writeHeader', () => {
  it('writes the 4 magic bytes then the version as uint32 LE', () => {
    const w = new ByteWriter();
    writeHeader(w, 'Ytst', 258);
    assert.deepEqual([...w.view()], [0x59, 0x74, 0x73, 0x74, 2, 1, 0, 0]);
    assert.equal(w.length, HEADER_LENGTH);
  });

  it('rejects a magic that is not 4 ASCII characters', () => {
    assert.throws(() => { writeHeader(new ByteWriter(), 'abc', 1); }, RangeError);
    assert.throws(() => { writeHeader(new ByteWriter(), 'abcé', 1); }, RangeError);
  });
});

describe('writeFooter', () => {
  it('appends the footer magic and the CRC-32 of every preceding byte', () => {
    const bytes = file('Ytst', 1, Uint8Array.of(1, 2, 3));
    assert.equal(bytes.length, HEADER_LENGTH + 3 + FOOTER_LENGTH);
    const stored = new DataView(bytes.buffer).getUint32(bytes.length - 4, true);
    assert.equal(stored, zlibCrc32(bytes.subarray(0, bytes.length - 4)) >>> 0);
  });
});

describe('openChecked', () => {
  it('returns a reader after the header and the end of the body', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (body, version) => {
        const bytes = file('Ytst', version, body);
        const { reader, bodyEnd } = openChecked(bytes, 'seg.tst', 'Ytst', version);
        assert.equal(reader.pos, HEADER_LENGTH);
        assert.deepEqual(reader.readBytes(bodyEnd - reader.pos), body);
      }),
    );
  });

  it('fails with corrupt_index naming the file when any byte is flipped', () => {
    const bytes = file('Ytst', 3, Uint8Array.from({ length: 100 }, (_, i) => i * 7));
    assertEveryFlipIsCorrupt(bytes, (b) => openChecked(b, 'seg-000001.tst', 'Ytst', 3), 'seg-000001.tst');
  });

  it('fails with corrupt_index when the file is truncated or empty', () => {
    const bytes = file('Ytst', 3, new Uint8Array(40));
    assertTruncationIsCorrupt(bytes, (b) => openChecked(b, 'x.tst', 'Ytst', 3), 'x.tst');
  });

  it('fails with corrupt_index naming the file when the magic is another file kind', () => {
    const bytes = file('Yabc', 1, new Uint8Array(4));
    assert.throws(
      () => openChecked(bytes, 'seg.tst', 'Ytst', 1),
      (error: unknown) => {
        assert.ok(error instanceof YarrowError);
        assert.equal(error.code, ErrorCode.corruptIndex);
        assert.match(error.message, /seg\.tst/);
        assert.equal(error.details.expected, 'Ytst');
        assert.equal(error.details.actual, 'Yabc');
        return true;
      },
    );
  });

  it('fails with incompatible_format naming the file and both versions on a version mismatch', () => {
    const bytes = file('Ytst', 7, new Uint8Array(4));
    assert.throws(
      () => openChecked(bytes, 'seg.tst', 'Ytst', 2),
      (error: unknown) => {
        assert.ok(error instanceof YarrowError);
        assert.equal(error.code, ErrorCode.incompatibleFormat);
        assert.match(error.message, /seg\.tst/);
        assert.match(error.message, /7/);
        assert.match(error.message, /2/);
        assert.equal(error.details.expected, '2');
        assert.equal(error.details.actual, '7');
        return true;
      },
    );
  });
});

describe('verifyChecksum', () => {
  it('accepts an intact file of any kind and rejects a damaged one', () => {
    const bytes = file('Yany', 99, Uint8Array.of(5, 6, 7));
    verifyChecksum(bytes, 'f');
    const damaged = bytes.slice();
    damaged[9] ^= 4;
    assertYarrowError(() => { verifyChecksum(damaged, 'f.bin'); }, ErrorCode.corruptIndex, 'f.bin');
  });
});
