import { describe, it } from 'node:test';
import { ByteWriter } from '../../../../src/engine/codec/bytes/byte-writer.js';
import { writeFooter, writeHeader } from '../../../../src/engine/codec/file-format.js';
import { decodeNorms } from '../../../../src/engine/codec/norms/norms-reader.js';
import { NORMS_MAGIC, NORMS_VERSION, encodeNorms } from '../../../../src/engine/codec/norms/norms-writer.js';
import { ErrorCode } from '../../../../src/engine/errors.js';
import { assertEveryFlipIsCorrupt, assertTruncationIsCorrupt, assertYarrowError } from '../corruption.js';

const sample = encodeNorms(
  new Map([
    ['title', Uint8Array.from({ length: 60 }, (_, i) => (i * 13) % 256)],
    ['body', new Uint8Array(60).fill(3)],
  ]),
  60,
);

describe('decodeNorms', () => {
  it('fails with corrupt_index naming the file when any byte is flipped or the file is cut', () => {
    assertEveryFlipIsCorrupt(sample, (b) => decodeNorms(b, 'seg-1.nrm'), 'seg-1.nrm');
    assertTruncationIsCorrupt(sample, (b) => decodeNorms(b, 'seg-1.nrm'), 'seg-1.nrm');
  });

  it('fails with incompatible_format on another format version', () => {
    const w = new ByteWriter();
    writeHeader(w, NORMS_MAGIC, NORMS_VERSION + 1);
    w.writeVarint(0);
    w.writeVarint(0);
    writeFooter(w);
    assertYarrowError(() => decodeNorms(w.toBytes(), 'seg-1.nrm'), ErrorCode.incompatibleFormat, 'seg-1.nrm');
  });

  it('fails with corrupt_index on a file of another kind', () => {
    const w = new ByteWriter();
    writeHeader(w, 'Yxxx', NORMS_VERSION);
    w.writeVarint(0);
    w.writeVarint(0);
    writeFooter(w);
    assertYarrowError(() => decodeNorms(w.toBytes(), 'seg-1.nrm'), ErrorCode.corruptIndex, 'seg-1.nrm');
  });

  it('fails with corrupt_index on a checksummed file with an unknown encoding byte', () => {
    const w = new ByteWriter();
    writeHeader(w, NORMS_MAGIC, NORMS_VERSION);
    w.writeVarint(2);
    w.writeVarint(1);
    w.writeString('f');
    w.writeByte(7);
    writeFooter(w);
    assertYarrowError(() => decodeNorms(w.toBytes(), 'seg-1.nrm'), ErrorCode.corruptIndex, 'seg-1.nrm');
  });
});
