import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ByteWriter } from '../../../../src/engine/codec/bytes/byte-writer.js';
import { writeFooter, writeHeader } from '../../../../src/engine/codec/file-format.js';
import { StoredFieldsReader } from '../../../../src/engine/codec/stored-fields/stored-fields-reader.js';
import { STORED_FIELDS_MAGIC, STORED_FIELDS_VERSION, StoredFieldsWriter } from '../../../../src/engine/codec/stored-fields/stored-fields-writer.js';
import { ErrorCode } from '../../../../src/engine/errors.js';
import { assertEveryFlipIsCorrupt, assertTruncationIsCorrupt, assertYarrowError } from '../corruption.js';

function sample(): Uint8Array {
  const w = new StoredFieldsWriter({ blockBytes: 200 });
  for (let i = 0; i < 40; i++) w.add({ _id: String(i), n: i, tags: ['a', 'b'] });
  return w.finish();
}

describe('StoredFieldsReader', () => {
  it('fails with corrupt_index naming the file when any byte is flipped or the file is cut', () => {
    const bytes = sample();
    assertEveryFlipIsCorrupt(bytes, (b) => StoredFieldsReader.open(b, 'seg-2.fdt'), 'seg-2.fdt');
    assertTruncationIsCorrupt(bytes, (b) => StoredFieldsReader.open(b, 'seg-2.fdt'), 'seg-2.fdt');
  });

  it('fails with incompatible_format on another format version', () => {
    const w = new ByteWriter();
    writeHeader(w, STORED_FIELDS_MAGIC, STORED_FIELDS_VERSION + 1);
    w.writeVarint(0);
    w.writeFloat64(8);
    writeFooter(w);
    assertYarrowError(() => StoredFieldsReader.open(w.toBytes(), 'seg-2.fdt'), ErrorCode.incompatibleFormat, 'seg-2.fdt');
  });

  it('fails with corrupt_index on a checksummed block that does not decompress', () => {
    const w = new ByteWriter();
    writeHeader(w, STORED_FIELDS_MAGIC, STORED_FIELDS_VERSION);
    w.writeBytes(Uint8Array.of(0xff, 0xff, 0xff));
    w.writeVarint(1);
    w.writeVarint(1);
    w.writeVarint(3);
    w.writeFloat64(11);
    writeFooter(w);
    const r = StoredFieldsReader.open(w.toBytes(), 'seg-2.fdt');
    assertYarrowError(() => r.get(0), ErrorCode.corruptIndex, 'seg-2.fdt');
  });

  it('serves consecutive reads from one block and switches blocks on demand', () => {
    const r = StoredFieldsReader.open(sample(), 'seg-2.fdt');
    assert.equal(r.count, 40);
    for (const i of [0, 1, 39, 2, 20, 38]) assert.deepEqual(r.get(i), { _id: String(i), n: i, tags: ['a', 'b'] });
    assert.throws(() => r.getRaw(40), RangeError);
    assert.throws(() => r.getRaw(-1), RangeError);
  });
});
