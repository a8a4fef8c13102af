import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ByteWriter } from '../../../../src/engine/codec/bytes/byte-writer.js';
import { decodeDocValues } from '../../../../src/engine/codec/doc-values/doc-values-reader.js';
import { DOC_VALUES_MAGIC, DOC_VALUES_VERSION, encodeDocValues } from '../../../../src/engine/codec/doc-values/doc-values-writer.js';
import { writeFooter, writeHeader } from '../../../../src/engine/codec/file-format.js';
import { ErrorCode } from '../../../../src/engine/errors.js';
import { assertEveryFlipIsCorrupt, assertTruncationIsCorrupt, assertYarrowError } from '../corruption.js';

const maxDoc = 50;
const sample = encodeDocValues(
  [
    { kind: 'numeric', field: 'price', offsets: Uint32Array.from({ length: maxDoc + 1 }, (_, i) => i), values: Float64Array.from({ length: maxDoc }, (_, i) => i * 1.5) },
    { kind: 'keyword', field: 'tag', dictionary: ['x', 'y', 'z'], offsets: Uint32Array.from({ length: maxDoc + 1 }, (_, i) => 2 * i), ords: Uint32Array.from({ length: 2 * maxDoc }, (_, i) => (i % 2) + (i % 3 === 0 ? 1 : 0)) },
  ],
  maxDoc,
);

describe('decodeDocValues', () => {
  it('fails with corrupt_index naming the file when any byte is flipped or the file is cut', () => {
    const open = (b: Uint8Array): unknown => {
      const r = decodeDocValues(b, 'seg-3.dvd');
      return r.fields.map((f) => r.column(f));
    };
    assertEveryFlipIsCorrupt(sample, open, 'seg-3.dvd');
    assertTruncationIsCorrupt(sample, open, 'seg-3.dvd');
  });

  it('fails with incompatible_format on another format version', () => {
    const w = new ByteWriter();
    writeHeader(w, DOC_VALUES_MAGIC, DOC_VALUES_VERSION + 1);
    w.writeVarint(0);
    w.writeVarint(0);
    writeFooter(w);
    assertYarrowError(() => decodeDocValues(w.toBytes(), 'seg-3.dvd'), ErrorCode.incompatibleFormat, 'seg-3.dvd');
  });

  it('fails with corrupt_index naming the column when a checksummed column holds an ordinal past the dictionary', () => {
    const w = new ByteWriter();
    writeHeader(w, DOC_VALUES_MAGIC, DOC_VALUES_VERSION);
    w.writeVarint(1); // maxDoc
    w.writeVarint(1); // columns
    w.writeString('tag');
    w.writeByte(1);
    const body = new ByteWriter();
    body.writeByte(0); // single-valued
    body.writeVarint(1); // dictionary size
    body.writeVarint(0);
    body.writeString('x');
    body.writeByte(1); // width 1
    body.writeByte(1); // ordinal 1
    w.writeVarint(body.length);
    w.writeBytes(body.view());
    writeFooter(w);
    const reader = decodeDocValues(w.toBytes(), 'seg-3.dvd');
    assert.throws(() => reader.column('tag'), (error: unknown) => error instanceof Error && /seg-3\.dvd \(column tag\)/.test(error.message));
  });

  it('decodes each column once and returns the same object afterwards', () => {
    const reader = decodeDocValues(sample, 'seg-3.dvd');
    assert.deepEqual(reader.fields, ['price', 'tag']);
    const price = reader.column('price');
    assert.equal(reader.column('price'), price);
    assert.ok(price?.kind === 'numeric');
    assert.equal(price.values[3], 4.5);
  });
});
