import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { TermDictionaryReader } from '../../../../src/engine/codec/term-dictionary/term-dictionary-reader.js';
import { TermDictionaryWriter } from '../../../../src/engine/codec/term-dictionary/term-dictionary-writer.js';

const infoFor = (i: number) => ({
  docFreq: (i % 7) + 1,
  totalTermFreq: (i % 7) + 1 + (i % 3),
  postingsOffset: i % 7 === 0 ? -1 : i * 13,
  singletonDoc: i % 7 === 0 ? i : -1,
  positionsOffset: i * 5,
  maxFreq: (i % 4) + 1,
  minNorm: i % 256,
});

describe('TermDictionaryReader', () => {
  it('finds every written term, misses absent ones and iterates in order', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('title', 'body', '_id'), fc.uniqueArray(fc.string({ unit: 'grapheme', maxLength: 12 }), { maxLength: 200 })),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 20 }),
        (fields, probes) => {
          const writer = new TermDictionaryWriter();
          const sorted = Object.entries(fields).map(([f, terms]) => [f, [...terms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))] as const);
          for (const [field, terms] of sorted) {
            writer.startField(field);
            terms.forEach((t, i) => { writer.addTerm(t, infoFor(i)); });
          }
          const reader = TermDictionaryReader.open(writer.finish(), 'test.tdx');
          for (const [field, terms] of sorted) {
            assert.equal(reader.termCount(field), terms.length);
            terms.forEach((t, i) => { assert.deepEqual(reader.lookup(field, t), { term: t, ...infoFor(i) }); });
            assert.deepEqual([...reader.terms(field)].map((e) => e.term), terms);
            for (const p of probes) {
              assert.equal(reader.lookup(field, p) !== undefined, terms.includes(p));
              assert.deepEqual([...reader.terms(field, p)].map((e) => e.term), terms.filter((t) => t >= p));
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
