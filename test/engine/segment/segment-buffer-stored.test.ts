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

  it('counts stored documents as held, compressed, so long repetitive documents do not cut segments early', () => {
    const buffer = new SegmentBuffer(mapping, getAnalyzer);
    const doc = validateDocument(mapping, { _id: 'a', title: 'x', year: 2000 });
    buffer.add(doc, 'a', JSON.stringify(doc.stored));
    const grewBy = (id: string, note: string): { growth: number; json: number } => {
      const before = buffer.estimatedBytes;
      const big = validateDocument(mapping, { _id: id, year: 2001 });
      const json = JSON.stringify({ ...big.stored, note });
      buffer.add(big, id, json);
      return { growth: buffer.estimatedBytes - before, json: json.length };
    };
    // 100 KB of one letter compresses to almost nothing: counted whole as UTF-16 it was 200 KB.
    const repetitive = grewBy('b', 'n'.repeat(100_000));
    assert.ok(repetitive.growth > 0 && repetitive.growth < repetitive.json / 4, `estimate grew by ${repetitive.growth}`);
    // Text that does not compress is held at its size, and counted at least at that.
    let seed = 7;
    const noise = Array.from({ length: 100_000 }, () => String.fromCharCode(33 + ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % 90)).replace(/["\\]/, 'a')).join('');
    const random = grewBy('c', noise);
    assert.ok(random.growth >= random.json, `estimate grew by ${random.growth} for ${random.json} bytes of JSON`);
  });
});
