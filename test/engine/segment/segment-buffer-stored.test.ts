import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getAnalyzer } from '../../../src/engine/analysis/analyzers.js';
import { StoredFieldsReader } from '../../../src/engine/codec/stored-fields/stored-fields-reader.js';
import { validateDocument } from '../../../src/engine/schema/document.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';
import { SegmentBuffer } from '../../../src/engine/segment/segment-buffer.js';
import { componentFile, SegmentComponent } from '../../../src/engine/segment/segment-component.js';

const mapping = parseMapping(
  {
    fields: {
      _id: { type: 'id' },
      title: { type: 'text', search: { lexical: { analyze: 'english' } } },
      year: { type: 'int', filter: true },
    },
  },
  'mapping',
);

/** Documents whose stored JSON spans several compressed blocks (16 KiB, at most 1,024 docs each). */
function docs(n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({ _id: `d${i % 2_900}`, title: `title ${i} ${'word'.repeat(i % 40)} “quoted” ünï`, year: 1900 + (i % 100) }));
}

describe('SegmentBuffer stored documents', () => {
  it('compresses stored documents as they arrive and reads each back in doc order, replaced ones included', async () => {
    const buffer = new SegmentBuffer(mapping, getAnalyzer);
    const input = docs(3_000);
    const expected: string[] = [];
    for (const raw of input) {
      const doc = validateDocument(mapping, raw);
      const json = JSON.stringify(doc.stored);
      expected.push(json);
      buffer.add(doc, doc.id!, json);
    }
    const flushed = await buffer.flush('_0');
    // Ids d0..d99 came twice: the first copies are replaced inside the buffer, yet still stored.
    assert.deepEqual(flushed.deletedDocs, Array.from({ length: 100 }, (_, i) => i));
    const name = componentFile('_0', SegmentComponent.storedFields);
    const reader = StoredFieldsReader.open(flushed.files.get(name)!, name);
    assert.equal(reader.count, input.length);
    for (let d = 0; d < input.length; d++) assert.equal(reader.getRaw(d), expected[d], `doc ${d}`);
  });

  it('counts the stored JSON whole in its estimate, compressed or not, so segments keep their measured size', () => {
    const buffer = new SegmentBuffer(mapping, getAnalyzer);
    const doc = validateDocument(mapping, { _id: 'a', title: 'x', year: 2000 });
    buffer.add(doc, 'a', JSON.stringify(doc.stored));
    const before = buffer.estimatedBytes;
    const big = validateDocument(mapping, { _id: 'b', year: 2001 });
    const json = JSON.stringify({ ...big.stored, note: 'n'.repeat(100_000) });
    buffer.add(big, 'b', json);
    assert.ok(buffer.estimatedBytes - before >= 2 * json.length, `estimate grew by ${buffer.estimatedBytes - before}`);
  });
});
