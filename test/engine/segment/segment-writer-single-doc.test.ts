import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { IndexOptions } from '../../../src/engine/codec/postings/postings-format.js';
import { SegmentWriter } from '../../../src/engine/segment/segment-writer.js';

/** One term of a field: its docs, each with its positions. */
interface Term {
  readonly term: string;
  readonly docs: readonly { doc: number; positions: readonly number[] }[];
}

const MAX_DOC = 40;
const termArb: fc.Arbitrary<Term> = fc.record({
  term: fc.string({ minLength: 1, maxLength: 6 }),
  docs: fc
    .uniqueArray(fc.nat({ max: MAX_DOC - 1 }), { minLength: 1, maxLength: 4 })
    .chain((docs) => fc.tuple(...[...docs].sort((a, b) => a - b).map((doc) => fc.uniqueArray(fc.nat({ max: 3000 }), { minLength: 1, maxLength: 5 }).map((p) => ({ doc, positions: [...p].sort((a, b) => a - b) }))))),
});

/** Writes a full-text field and an `_id`-like field of `terms`; `fast` takes the single-doc entries where a term has one doc. */
function write(terms: readonly Term[], norms: Uint8Array, fast: boolean): Map<string, Uint8Array> {
  const w = new SegmentWriter('_0', MAX_DOC);
  const sorted = [...new Map(terms.map((t) => [t.term, t])).values()].sort((a, b) => (a.term < b.term ? -1 : 1));
  w.startField('_id', IndexOptions.docs, null, null);
  for (const t of sorted) {
    if (fast) w.addSingletonTerm(t.term, t.docs[0].doc);
    else w.addTerm(t.term, 1, [t.docs[0].doc], null, null);
  }
  w.startField('body', IndexOptions.docsFreqsPositions, norms, { docCount: MAX_DOC, sumTotalTermFreq: 1 });
  for (const t of sorted) {
    const docs = t.docs.map((d) => d.doc);
    const freqs = t.docs.map((d) => d.positions.length);
    const positions = t.docs.flatMap((d) => d.positions);
    if (fast && docs.length === 1) w.addSingleDocTerm(t.term, docs[0], freqs[0], [-1, ...positions], 1);
    else w.addTerm(t.term, docs.length, docs, freqs, positions);
  }
  return new Map(w.finish().files);
}

describe('SegmentWriter single-doc terms', () => {
  it('writes the bytes addTerm writes for a term with one doc', () => {
    fc.assert(
      fc.property(fc.array(termArb, { maxLength: 50 }), fc.uint8Array({ minLength: MAX_DOC, maxLength: MAX_DOC }), (terms, norms) => {
        assert.deepEqual(write(terms, norms, true), write(terms, norms, false));
      }),
      { numRuns: 200 },
    );
  });
});
