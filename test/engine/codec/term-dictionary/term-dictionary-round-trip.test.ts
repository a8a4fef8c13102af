import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ErrorCode, YarrowError } from '../../../../src/engine/errors.js';
import { TermDictionaryReader } from '../../../../src/engine/codec/term-dictionary/term-dictionary-reader.js';
import { TermDictionaryWriter } from '../../../../src/engine/codec/term-dictionary/term-dictionary-writer.js';
import { crc32 } from '../../../../src/engine/codec/file-format.js';

const infoFor = (i: number) => ({
  docFreq: (i % 7) + 1,
  totalTermFreq: (i % 7) + 1 + (i % 3),
  postingsOffset: i % 7 === 0 ? -1 : i * 13,
  singletonDoc: i % 7 === 0 ? i : -1,
  positionsOffset: i * 5,
  maxFreq: (i % 4) + 1,
  minNorm: i % 256,
});

/** Writes each field's terms in sorted order, term i with {@link infoFor}(i); returns them and the file. */
function writeFields(fields: Record<string, readonly string[]>): { sorted: (readonly [string, string[]])[]; bytes: Uint8Array } {
  const writer = new TermDictionaryWriter();
  const sorted = Object.entries(fields).map(([f, terms]) => [f, [...terms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))] as const);
  for (const [field, terms] of sorted) {
    writer.startField(field);
    terms.forEach((t, i) => { writer.addTerm(t, infoFor(i)); });
  }
  return { sorted, bytes: writer.finish() };
}

const isCorrupt = (error: unknown): boolean => error instanceof YarrowError && error.code === ErrorCode.corruptIndex;

describe('TermDictionaryReader', () => {
  it('finds every written term, misses absent ones and iterates in order', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('title', 'body', '_id'), fc.uniqueArray(fc.string({ unit: 'grapheme', maxLength: 12 }), { maxLength: 200 })),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 20 }),
        (fields, probes) => {
          const { sorted, bytes } = writeFields(fields);
          const reader = TermDictionaryReader.open(bytes, 'test.tdx');
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

  it('finds long terms that share prefixes of any length, past the writer\'s first scratch of the previous term and a one-byte suffix length', () => {
    // Stems of 0 to 300 units, then tails that may leave ASCII: each term's suffix after the prefix
    // it shares is copied as ASCII or encoded, 1 to 300 units long.
    const stem = fc.constantFrom('', 'p'.repeat(60), 'p'.repeat(70), `${'q'.repeat(130)}é`, 'r'.repeat(300));
    const tail = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '😀', 'z'), maxLength: 140 });
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(stem, tail).map(([a, b]) => a + b), { minLength: 1, maxLength: 80 }), (terms) => {
        const { sorted, bytes } = writeFields({ body: terms });
        const reader = TermDictionaryReader.open(bytes, 'test.tdx');
        const [, written] = sorted[0];
        written.forEach((t, i) => { assert.deepEqual(reader.lookup('body', t), { term: t, ...infoFor(i) }); });
        assert.deepEqual([...reader.terms('body')].map((e) => e.term), written);
      }),
      { numRuns: 100 },
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
          const { sorted, bytes } = writeFields(fields);
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
    await assert.rejects(TermDictionaryReader.openField(readOf(truncated), truncated.length, 't.tdx', '_id'), isCorrupt);
    const wrongMagic = bytes.slice();
    wrongMagic[0] ^= 0xff;
    await assert.rejects(TermDictionaryReader.openField(readOf(wrongMagic), wrongMagic.length, 't.tdx', '_id'), isCorrupt);
  });

  it('decodes a field\'s block index on first use: one queried after the others answers as after a fresh open', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('title', 'body', '_id', 'tags'), fc.uniqueArray(fc.string({ unit: 'grapheme', maxLength: 12 }), { maxLength: 200 })),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 10 }),
        (fields, probes) => {
          const { sorted, bytes } = writeFields(fields);
          // Each field in turn is left untouched (no lookup, iteration or visit) while every other is
          // used, then compared with a reader that used it first.
          for (const [late, lateTerms] of sorted) {
            const shared = TermDictionaryReader.open(bytes, 'test.tdx');
            assert.equal(shared.termCount(late), lateTerms.length); // counts need no block decoding
            for (const [other, terms] of sorted) {
              if (other === late) continue;
              for (const t of [...terms, ...probes]) shared.lookup(other, t);
              assert.deepEqual([...shared.terms(other)].map((e) => e.term), terms);
            }
            const fresh = TermDictionaryReader.open(bytes, 'test.tdx');
            assert.equal(shared.termBlocks(late), Math.ceil(lateTerms.length / 32));
            assert.deepEqual(visitedTerms(shared, late), lateTerms);
            for (const p of [...lateTerms, ...probes]) assert.deepEqual(shared.lookup(late, p), fresh.lookup(late, p));
            lateTerms.forEach((t, i) => { assert.deepEqual(shared.lookup(late, t), { term: t, ...infoFor(i) }); });
            for (const p of probes) assert.deepEqual([...shared.terms(late, p)], [...fresh.terms(late, p)]);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('reports a corrupt block index as corrupt_index: a flipped byte at open, a bad block offset on the field\'s first use', () => {
    const writer = new TermDictionaryWriter();
    writer.startField('_id');
    for (let i = 0; i < 100; i++) writer.addTerm(`id${String(i).padStart(3, '0')}`, infoFor(i));
    writer.startField('title');
    for (let i = 0; i < 70; i++) writer.addTerm(`t${String(i).padStart(3, '0')}`, infoFor(i));
    const bytes = writer.finish();
    const indexStart = new DataView(bytes.buffer, bytes.byteOffset).getFloat64(bytes.length - 16, true);

    // Any flipped byte of the block index fails the checksum, which open still verifies whole.
    const flipped = bytes.slice();
    flipped[indexStart + 3] ^= 0x01;
    assert.throws(() => TermDictionaryReader.open(flipped, 't.tdx'), isCorrupt);

    // With the checksum made to match (a writer's bug, not a disk's), the outline still opens, the
    // untouched field answers, and the corrupted field's first use reports corrupt_index.
    // The '_id' field's first block entry: name "_id" (1 + 3 bytes), term count, block count, first term.
    const firstOffsetAt = indexStart + 1 + 4 + 1 + 1 + 1 + 'id000'.length;
    assert.equal(bytes[firstOffsetAt], 8, 'the first block starts after the header');
    const badOffset = withChecksum(bytes, (b) => { b[firstOffsetAt] = 0; }); // inside the header
    const reader = TermDictionaryReader.open(badOffset, 't.tdx');
    assert.equal(reader.termCount('_id'), 100);
    assert.deepEqual(reader.lookup('title', 't042'), { term: 't042', ...infoFor(42) });
    assert.throws(() => reader.lookup('_id', 'id042'), isCorrupt);
    assert.throws(() => [...TermDictionaryReader.open(badOffset, 't.tdx').terms('_id')], isCorrupt);
    assert.throws(() => { TermDictionaryReader.open(badOffset, 't.tdx').visitTermUnits('_id', 1, () => undefined); }, isCorrupt);

    // A block count that runs the outline past the end is reported at open.
    const blockCountAt = indexStart + 1 + 4 + 1;
    assert.equal(bytes[blockCountAt], 4);
    const tooManyBlocks = withChecksum(bytes, (b) => { b[blockCountAt] = 0x7f; });
    assert.throws(() => TermDictionaryReader.open(tooManyBlocks, 't.tdx'), isCorrupt);
  });
});

/** The terms of a field as {@link TermDictionaryReader.visitTermUnits} yields them, block by block. */
function visitedTerms(reader: TermDictionaryReader, field: string): string[] {
  const out: string[] = [];
  for (let b = 0; b < reader.termBlocks(field); b++) {
    reader.visitTermUnits(field, b, (units, length) => { out.push(String.fromCharCode(...units.subarray(0, length))); });
  }
  return out;
}

/** A copy of a `.tdx` file changed by `change`, its footer's CRC-32 recomputed so that it passes the checksum. */
function withChecksum(bytes: Uint8Array, change: (b: Uint8Array) => void): Uint8Array {
  const out = bytes.slice();
  change(out);
  new DataView(out.buffer).setUint32(out.length - 4, crc32(out.subarray(0, out.length - 4)), true);
  return out;
}
