import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeDocValues } from '../../../../src/engine/codec/doc-values/doc-values-reader.js';
import { encodeDocValues } from '../../../../src/engine/codec/doc-values/doc-values-writer.js';
import type { DocValuesColumn, KeywordColumn, NumericColumn } from '../../../../src/engine/codec/doc-values/doc-values-writer.js';

type Arity = 'single' | 'optional' | 'multi' | 'empty';

function countsArbitrary(maxDoc: number, arity: Arity): fc.Arbitrary<number[]> {
  const count = { single: fc.constant(1), optional: fc.integer({ min: 0, max: 1 }), multi: fc.integer({ min: 0, max: 4 }), empty: fc.constant(0) }[arity];
  return fc.array(count, { minLength: maxDoc, maxLength: maxDoc });
}

function offsetsOf(counts: readonly number[]): Uint32Array {
  const offsets = new Uint32Array(counts.length + 1);
  counts.forEach((c, d) => (offsets[d + 1] = offsets[d] + c));
  return offsets;
}

const numberArbitrary = fc.oneof(
  fc.constant('small-ints' as const),
  fc.constant('safe-ints' as const),
  fc.constant('timestamps' as const),
  fc.constant('doubles' as const),
).chain((kind) => {
  switch (kind) {
    case 'small-ints':
      return fc.integer({ min: -1000, max: 1000 });
    case 'safe-ints':
      return fc.maxSafeInteger();
    case 'timestamps':
      return fc.integer({ min: 1_500_000_000, max: 1_800_000_000 }).map((s) => s * 1000);
    case 'doubles':
      return fc.double();
  }
});

function numericColumn(field: string, maxDoc: number): fc.Arbitrary<NumericColumn> {
  return fc.constantFrom<Arity>('single', 'optional', 'multi', 'empty').chain((arity) =>
    countsArbitrary(maxDoc, arity).chain((counts) => {
      const offsets = offsetsOf(counts);
      const n = offsets[maxDoc];
      // One generator per column, so integer-only columns take the packed path.
      return fc
        .oneof(fc.constant(fc.integer({ min: 0, max: 50 })), fc.constant(numberArbitrary), fc.constant(fc.maxSafeInteger()))
        .chain((gen) => fc.array(gen, { minLength: n, maxLength: n }))
        .map((values): NumericColumn => ({ kind: 'numeric', field, offsets, values: Float64Array.from(values) }));
    }),
  );
}

function keywordColumn(field: string, maxDoc: number): fc.Arbitrary<KeywordColumn> {
  return fc.constantFrom<Arity>('single', 'optional', 'multi', 'empty').chain((arity) =>
    fc.tuple(
      countsArbitrary(maxDoc, arity),
      fc.uniqueArray(fc.oneof(fc.string({ unit: 'binary', maxLength: 8 }), fc.constantFrom('apple', 'apples', 'applet', '😀', '😀a', '😁', 'a😀', 'a😁')), { minLength: 1, maxLength: 40 }),
    ).chain(([counts, words]) => {
      const dictionary = [...words].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const offsets = offsetsOf(counts);
      const n = offsets[maxDoc];
      return fc.array(fc.nat({ max: dictionary.length - 1 }), { minLength: n, maxLength: n }).map((raw): KeywordColumn => {
        const ords = Uint32Array.from(raw);
        for (let d = 0; d < maxDoc; d++) ords.subarray(offsets[d], offsets[d + 1]).sort();
        return { kind: 'keyword', field, dictionary, offsets, ords };
      });
    }),
  );
}

const columnsArbitrary = fc.integer({ min: 0, max: 300 }).chain((maxDoc) =>
  fc.tuple(
    fc.constant(maxDoc),
    fc
      .uniqueArray(fc.string({ unit: 'binary', maxLength: 6 }), { maxLength: 4 })
      .chain((fields) => fc.tuple(...fields.map((f) => fc.oneof(numericColumn(f, maxDoc), keywordColumn(f, maxDoc)) as fc.Arbitrary<DocValuesColumn>))),
  ),
);

function assertSameColumn(actual: DocValuesColumn | undefined, expected: DocValuesColumn): void {
  assert.ok(actual !== undefined);
  assert.equal(actual.kind, expected.kind);
  assert.equal(actual.field, expected.field);
  assert.deepEqual([...actual.offsets], [...expected.offsets]);
  if (actual.kind === 'numeric' && expected.kind === 'numeric') {
    assert.equal(actual.values.length, expected.values.length);
    expected.values.forEach((v, i) => { assert.ok(Object.is(actual.values[i], v), `value ${i}: ${actual.values[i]} vs ${v}`); });
  } else if (actual.kind === 'keyword' && expected.kind === 'keyword') {
    assert.deepEqual(actual.dictionary, expected.dictionary);
    assert.deepEqual([...actual.ords], [...expected.ords]);
  }
}

describe('encodeDocValues', () => {
  it('round-trips random single-valued, multi-valued and sparse columns through decodeDocValues', () => {
    fc.assert(
      fc.property(columnsArbitrary, ([maxDoc, columns]) => {
        const reader = decodeDocValues(encodeDocValues(columns, maxDoc), 'seg.dvd');
        assert.deepEqual(reader.fields, columns.map((c) => c.field));
        for (const col of columns) assertSameColumn(reader.column(col.field), col);
        assert.equal(reader.column('no such field \u0000'), undefined);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps -0, NaN, infinities and non-safe integers exactly', () => {
    const values = Float64Array.of(-0, NaN, Infinity, -Infinity, 2 ** 60, 0.1, -5);
    const col: NumericColumn = { kind: 'numeric', field: 'x', offsets: Uint32Array.from({ length: 8 }, (_, i) => i), values };
    assertSameColumn(decodeDocValues(encodeDocValues([col], 7), 'f.dvd').column('x'), col);
  });

  it('packs integer columns far below 8 bytes per value and skips offsets for single-valued ones', () => {
    const maxDoc = 10_000;
    const offsets = Uint32Array.from({ length: maxDoc + 1 }, (_, i) => i);
    const small = encodeDocValues([{ kind: 'numeric', field: 'n', offsets, values: Float64Array.from({ length: maxDoc }, (_, i) => i % 16) }], maxDoc);
    assert.ok(small.length < maxDoc, `${small.length} bytes for 4-bit values`);
    const stamps = encodeDocValues([{ kind: 'numeric', field: 't', offsets, values: Float64Array.from({ length: maxDoc }, (_, i) => 1.7e12 + i * 60_000) }], maxDoc);
    assert.ok(stamps.length < maxDoc * 3, `${stamps.length} bytes for minute timestamps`);
  });

  it('prefix-compresses the keyword dictionary', () => {
    const dictionary = Array.from({ length: 1000 }, (_, i) => `a-rather-long-shared-prefix-${String(i).padStart(4, '0')}`);
    const offsets = Uint32Array.from({ length: 1001 }, (_, i) => i);
    const bytes = encodeDocValues([{ kind: 'keyword', field: 'k', dictionary, offsets, ords: Uint32Array.from({ length: 1000 }, (_, i) => i) }], 1000);
    assert.ok(bytes.length < 1000 * 8, `${bytes.length} bytes`);
  });

  it('rejects an unsorted dictionary, bad offsets and duplicate fields', () => {
    const one = Uint32Array.of(0, 1);
    assert.throws(() => encodeDocValues([{ kind: 'keyword', field: 'k', dictionary: ['b', 'a'], offsets: one, ords: Uint32Array.of(0) }], 1), RangeError);
    assert.throws(() => encodeDocValues([{ kind: 'numeric', field: 'n', offsets: one, values: new Float64Array(2) }], 1), RangeError);
    const col: NumericColumn = { kind: 'numeric', field: 'n', offsets: one, values: new Float64Array(1) };
    assert.throws(() => encodeDocValues([col, col], 1), RangeError);
  });
});
