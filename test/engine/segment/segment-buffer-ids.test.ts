import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { getAnalyzer } from '../../../src/engine/analysis/analyzers.js';
import { validateDocument } from '../../../src/engine/schema/document.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';
import { SegmentBuffer } from '../../../src/engine/segment/segment-buffer.js';
import type { FlushedBuffer } from '../../../src/engine/segment/segment-buffer.js';
import { TermDictionaryReader } from '../../../src/engine/codec/term-dictionary/term-dictionary-reader.js';
import { componentFile, SegmentComponent } from '../../../src/engine/segment/segment-component.js';

const mapping = parseMapping(
  {
    fields: {
      _id: { type: 'id' },
      title: { type: 'text', search: { lexical: { analyze: 'english' } } },
      tag: { type: 'text', filter: true },
    },
  },
  'mapping',
);

type Op = { kind: 'add'; id: string; title: string } | { kind: 'delete'; id: string };

/** Applies `ops` to a buffer; `idsAtFlush` as given. */
async function flushOf(ops: readonly Op[], idsAtFlush: boolean): Promise<FlushedBuffer> {
  const buffer = new SegmentBuffer(mapping, getAnalyzer, { idsAtFlush });
  for (const op of ops) {
    if (op.kind === 'delete') {
      buffer.delete(op.id);
      continue;
    }
    const doc = validateDocument(mapping, { _id: op.id, title: op.title, tag: op.title.slice(0, 3) });
    buffer.add(doc, op.id, JSON.stringify(doc.stored));
  }
  return buffer.flush('_0');
}

function assertSameSegment(actual: FlushedBuffer, expected: FlushedBuffer): void {
  assert.deepEqual(actual.deletedDocs, expected.deletedDocs);
  assert.deepEqual(actual.info, expected.info);
  assert.deepEqual([...actual.files.keys()], [...expected.files.keys()]);
  for (const [name, bytes] of expected.files) assert.deepEqual(actual.files.get(name), bytes, name);
}

/** Ids that repeat, share long prefixes, tie past ASCII or differ only in case. */
const id = fc.oneof(
  fc.constantFrom('a', 'b', 'A', 'ab', 'é', 'e\u0301', '日本', '\u{1F600}', 'x'.repeat(40), `${'x'.repeat(40)}y`),
  fc.integer({ min: 0, max: 30 }).map((n) => `pkg/${n}`),
  fc.string({ minLength: 1, maxLength: 6 }),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('add' as const), id, title: fc.constantFrom('running fast', 'the quick fox', 'über café', 'words and more words') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), id }) },
);

describe('SegmentBuffer ids resolved at the flush', () => {
  it('writes the same segment as a map per doc: the last doc of an id wins, earlier ones are deleted', async () => {
    const ops: Op[] = ['b', 'a', 'c', 'a', 'b', 'a'].map((i, n) => ({ kind: 'add', id: i, title: `title ${n}` }));
    const flushed = await flushOf(ops, true);
    assert.deepEqual(flushed.deletedDocs, [0, 1, 3]);
    assertSameSegment(flushed, await flushOf(ops, false));
    const name = componentFile('_0', SegmentComponent.terms);
    const terms = TermDictionaryReader.open(flushed.files.get(name)!, name);
    const docOf = (i: string): number | undefined => terms.lookup('_id', i)?.singletonDoc;
    assert.deepEqual(['a', 'b', 'c', 'd'].map(docOf), [5, 4, 2, undefined]);
  });

  it('matches the per-doc map on any mix of repeated ids and deletes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 60 }), async (ops) => {
        assertSameSegment(await flushOf(ops, true), await flushOf(ops, false));
      }),
      { numRuns: 150 },
    );
  });

  it('answers has, delete and liveIds after adds, by building the map then', () => {
    const buffer = new SegmentBuffer(mapping, getAnalyzer, { idsAtFlush: true });
    for (const i of ['x', 'y', 'x']) {
      const doc = validateDocument(mapping, { _id: i, title: 't' });
      buffer.add(doc, i, JSON.stringify(doc.stored));
    }
    assert.equal(buffer.has('x'), true);
    assert.equal(buffer.has('z'), false);
    assert.deepEqual([...buffer.liveIds()].sort(), ['x', 'y']);
    assert.equal(buffer.delete('y'), true);
    assert.equal(buffer.delete('y'), false);
    assert.deepEqual([...buffer.liveIds()], ['x']);
  });
});
