import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ErrorCode, YarrowError } from '../../../../src/engine/errors.js';
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

  it('finds and misses terms that share long prefixes, ASCII or not, like ids of one bulk load', () => {
    // A small alphabet makes neighbours share prefixes, the case the lookup's prefix scan shortcuts;
    // 'é' and '😀' (a surrogate pair) take its decoding paths. Probes are drawn from the same alphabet.
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'z', '0', 'é', '😀'), maxLength: 8 });
    fc.assert(
      fc.property(fc.uniqueArray(word, { maxLength: 300 }), fc.array(word, { maxLength: 60 }), (terms, probes) => {
        const sorted = [...terms].sort();
        const writer = new TermDictionaryWriter();
        writer.startField('_id');
        sorted.forEach((t, i) => { writer.addTerm(t, infoFor(i)); });
        const reader = TermDictionaryReader.open(writer.finish(), 'test.tdx');
        sorted.forEach((t, i) => { assert.deepEqual(reader.lookup('_id', t), { term: t, ...infoFor(i) }); });
        for (const p of probes) {
          const i = sorted.indexOf(p);
          assert.deepEqual(reader.lookup('_id', p), i < 0 ? undefined : { term: p, ...infoFor(i) });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('opens one field through ranged reads with the same lookups and order as a full open', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('title', 'body', '_id', 'tags'), fc.uniqueArray(fc.string({ unit: 'grapheme', maxLength: 12 }), { maxLength: 120 })),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 10 }),
        async (fields, probes) => {
          const writer = new TermDictionaryWriter();
          const sorted = Object.entries(fields).map(([f, terms]) => [f, [...terms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))] as const);
          for (const [field, terms] of sorted) {
            writer.startField(field);
            terms.forEach((t, i) => { writer.addTerm(t, infoFor(i)); });
          }
          const bytes = writer.finish();
          const full = TermDictionaryReader.open(bytes, 'test.tdx');
          const read = (offset: number, length: number): Promise<Uint8Array> => {
            assert.ok(offset >= 0 && offset + length <= bytes.length, `range ${offset}+${length} inside ${bytes.length}`);
            return Promise.resolve(bytes.slice(offset, offset + length));
          };
          for (const [field, terms] of sorted) {
            const one = await TermDictionaryReader.openField(read, bytes.length, 'test.tdx', field);
            assert.deepEqual(one.fieldNames, terms.length === 0 ? [] : [field]);
            assert.equal(one.termCount(field), terms.length);
            assert.deepEqual([...one.terms(field)], [...full.terms(field)]);
            for (const p of [...probes, ...terms]) assert.deepEqual(one.lookup(field, p), full.lookup(field, p));
            for (const [other] of sorted) if (other !== field) assert.equal(one.termCount(other), 0);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('rejects a truncated file or a wrong magic with corrupt_index when opening one field', async () => {
    const writer = new TermDictionaryWriter();
    writer.startField('_id');
    writer.addTerm('a', infoFor(0));
    const bytes = writer.finish();
    const readOf = (b: Uint8Array) => (offset: number, length: number) => Promise.resolve(b.slice(offset, offset + length));
    const truncated = bytes.slice(0, bytes.length - 3);
    const isCorrupt = (error: unknown): boolean => error instanceof YarrowError && error.code === ErrorCode.corruptIndex;
    await assert.rejects(TermDictionaryReader.openField(readOf(truncated), truncated.length, 't.tdx', '_id'), isCorrupt);
    const wrongMagic = bytes.slice();
    wrongMagic[0] ^= 0xff;
    await assert.rejects(TermDictionaryReader.openField(readOf(wrongMagic), wrongMagic.length, 't.tdx', '_id'), isCorrupt);
  });
});
