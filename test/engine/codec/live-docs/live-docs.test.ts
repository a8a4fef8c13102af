import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteWriter } from '../../../../src/engine/codec/bytes/byte-writer.js';
import { writeFooter, writeHeader } from '../../../../src/engine/codec/file-format.js';
import { LIVE_DOCS_MAGIC, LIVE_DOCS_VERSION, LiveDocs } from '../../../../src/engine/codec/live-docs/live-docs.js';
import { ErrorCode } from '../../../../src/engine/errors.js';
import { assertEveryFlipIsCorrupt, assertTruncationIsCorrupt, assertYarrowError } from '../corruption.js';

const deletionsArbitrary = fc.integer({ min: 0, max: 400 }).chain((maxDoc) =>
  fc.tuple(fc.constant(maxDoc), maxDoc === 0 ? fc.constant([]) : fc.array(fc.nat({ max: maxDoc - 1 }), { maxLength: maxDoc * 2 })),
);

describe('LiveDocs', () => {
  it('starts with every doc live and nothing out of range', () => {
    const docs = LiveDocs.allLive(70);
    assert.equal(docs.maxDoc, 70);
    assert.equal(docs.liveCount, 70);
    for (let d = 0; d < 70; d++) assert.ok(docs.isLive(d));
    assert.equal(docs.isLive(70), false);
    assert.equal(docs.isLive(-1), false);
  });

  it('deletes like a set model and reports whether the doc was live', () => {
    fc.assert(
      fc.property(deletionsArbitrary, ([maxDoc, deletions]) => {
        const docs = LiveDocs.allLive(maxDoc);
        const model = new Set<number>();
        for (const d of deletions) {
          assert.equal(docs.delete(d), !model.has(d));
          model.add(d);
        }
        assert.equal(docs.liveCount, maxDoc - model.size);
        for (let d = 0; d < maxDoc; d++) assert.equal(docs.isLive(d), !model.has(d));
      }),
    );
  });

  it('round-trips through encode and decode, sparse or dense', () => {
    fc.assert(
      fc.property(deletionsArbitrary, ([maxDoc, deletions]) => {
        const docs = LiveDocs.allLive(maxDoc);
        for (const d of deletions) docs.delete(d);
        const decoded = LiveDocs.decode(docs.encode(), 'seg_1.liv');
        assert.equal(decoded.maxDoc, maxDoc);
        assert.equal(decoded.liveCount, docs.liveCount);
        for (let d = 0; d < maxDoc; d++) assert.equal(decoded.isLive(d), docs.isLive(d));
      }),
    );
  });

  it('encodes few deletions in far fewer bytes than a bitset', () => {
    const docs = LiveDocs.allLive(1_000_000);
    docs.delete(5);
    docs.delete(999_999);
    assert.ok(docs.encode().length < 40);
    const many = LiveDocs.allLive(1_000_000);
    for (let d = 0; d < 1_000_000; d += 2) many.delete(d);
    assert.ok(many.encode().length <= 1_000_000 / 8 + 40);
  });

  it('clones independently, so a snapshot keeps its view while the writer deletes', () => {
    const docs = LiveDocs.allLive(10);
    docs.delete(1);
    const snapshot = docs.clone();
    docs.delete(2);
    assert.ok(snapshot.isLive(2));
    assert.equal(snapshot.liveCount, 9);
    assert.equal(docs.liveCount, 8);
    snapshot.delete(3);
    assert.ok(docs.isLive(3));
  });

  it('rejects deleting a docId out of range', () => {
    assert.throws(() => LiveDocs.allLive(3).delete(3), RangeError);
  });

  it('fails to decode with corrupt_index naming the file when any byte is flipped or the file is cut', () => {
    for (const deletions of [[0, 7, 63], Array.from({ length: 60 }, (_, i) => i * 2)]) {
      const docs = LiveDocs.allLive(130);
      for (const d of deletions) docs.delete(d);
      const bytes = docs.encode();
      assertEveryFlipIsCorrupt(bytes, (b) => LiveDocs.decode(b, 'seg_4.liv'), 'seg_4.liv');
      assertTruncationIsCorrupt(bytes, (b) => LiveDocs.decode(b, 'seg_4.liv'), 'seg_4.liv');
    }
  });

  it('fails to decode with incompatible_format on another version and corrupt_index on another kind', () => {
    for (const [magic, version, code] of [
      [LIVE_DOCS_MAGIC, LIVE_DOCS_VERSION + 1, ErrorCode.incompatibleFormat],
      ['Ynrm', LIVE_DOCS_VERSION, ErrorCode.corruptIndex],
    ] as const) {
      const w = new ByteWriter();
      writeHeader(w, magic, version);
      w.writeVarint(0);
      w.writeVarint(0);
      w.writeByte(0);
      writeFooter(w);
      assertYarrowError(() => LiveDocs.decode(w.toBytes(), 'seg_4.liv'), code, 'seg_4.liv');
    }
  });

  it('fails to decode with corrupt_index when the deletion count disagrees with the bits', () => {
    const w = new ByteWriter();
    writeHeader(w, LIVE_DOCS_MAGIC, LIVE_DOCS_VERSION);
    w.writeVarint(32);
    w.writeVarint(1);
    w.writeByte(0);
    w.writeUint32(0xffff_ffff);
    writeFooter(w);
    assertYarrowError(() => LiveDocs.decode(w.toBytes(), 'seg_4.liv'), ErrorCode.corruptIndex, 'seg_4.liv');
  });
});
