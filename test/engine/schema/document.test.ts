import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { describeJsonType, validateDocument } from '../../../src/engine/schema/document.js';
import type { DocumentLocation } from '../../../src/engine/schema/document.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';

const mapping = parseMapping(
  {
    fields: {
      title: { type: 'text' },
      tags: { type: 'text[]' },
      year: { type: 'int' },
      views: { type: 'long' },
      score: { type: 'float' },
      rating: { type: 'double' },
      ok: { type: 'bool' },
      released: { type: 'date' },
      updated: { type: 'datetime' },
      years: { type: 'int[]' },
      counts: { type: 'long[]' },
      scores: { type: 'float[]' },
      ratings: { type: 'double[]' },
      flags: { type: 'bool[]' },
      days: { type: 'date[]' },
      times: { type: 'datetime[]' },
      'meta.author': { type: 'text' },
      'meta.stats.pages': { type: 'int' },
      secret: { type: 'text', store: false },
      constructor: { type: 'text' },
    },
  },
  'schema.all',
);

const strict = parseMapping({ fields: { title: { type: 'text', required: true }, tags: { type: 'text[]', required: true } } }, 'schema.strict');

interface Expected {
  field?: string;
  expected: string;
  actual: string;
  message: string;
}

function assertInvalid(raw: unknown, want: Expected, location?: DocumentLocation, m = mapping): void {
  assert.throws(
    () => validateDocument(m, raw, location),
    (error: unknown) => {
      assert.ok(error instanceof YarrowError, String(error));
      assert.equal(error.code, ErrorCode.invalidDocument);
      assert.equal(error.message, want.message);
      assert.deepEqual(error.details, { ...location, ...(want.field === undefined ? {} : { field: want.field }), expected: want.expected, actual: want.actual });
      return true;
    },
  );
}

/** Asserts that `{ [field]: value }` fails with the given expected/actual and a matching message tail. */
function assertField(field: string, value: unknown, expected: string, actual: string, got: string): void {
  assertInvalid({ [field]: value }, { field, expected, actual, message: `field "${field}": expected ${expected}, got ${got}` });
}

const valuesOf = (raw: unknown, field: string): unknown => validateDocument(mapping, raw).values.get(field);

describe('validateDocument', () => {
  it('normalises a value of every type', () => {
    const doc = validateDocument(mapping, {
      _id: 'm1',
      title: 'Alien',
      tags: ['sci-fi', 'horror'],
      year: 1979,
      views: 2 ** 40,
      score: 7.5,
      rating: 8.4,
      ok: false,
      released: '1979-05-25',
      updated: '2020-01-02T03:04:05+01:00',
      years: [1979, 1986],
      counts: [-(2 ** 53 - 1)],
      scores: [0.5],
      ratings: [1e300],
      flags: [true, false],
      days: ['2000-02-29'],
      times: ['2020-01-02T03:04:05Z', 1_600_000_000_000],
    });
    assert.equal(doc.id, 'm1');
    assert.deepEqual(Object.fromEntries(doc.values), {
      _id: ['m1'],
      title: ['Alien'],
      tags: ['sci-fi', 'horror'],
      year: [1979],
      views: [2 ** 40],
      score: [7.5],
      rating: [8.4],
      ok: [false],
      released: [Date.UTC(1979, 4, 25)],
      updated: [Date.UTC(2020, 0, 2, 2, 4, 5)],
      years: [1979, 1986],
      counts: [-(2 ** 53 - 1)],
      scores: [0.5],
      ratings: [1e300],
      flags: [true, false],
      days: [Date.UTC(2000, 1, 29)],
      times: [Date.UTC(2020, 0, 2, 3, 4, 5), 1_600_000_000_000],
      'meta.author': [],
      'meta.stats.pages': [],
      secret: [],
      constructor: [],
    });
  });

  it('gives every mapped field an entry and treats null as no value', () => {
    const doc = validateDocument(mapping, { title: null, tags: [], year: null });
    assert.equal(doc.id, undefined);
    assert.equal(doc.values.size, mapping.fields.length);
    for (const f of mapping.fields) assert.deepEqual(doc.values.get(f.name), [], f.name);
    // Stored values are the original ones: an empty array stays, nulls are left out.
    assert.deepEqual(doc.stored, { tags: [] });
  });

  it('stores original values of stored fields only and drops unmapped fields', () => {
    const doc = validateDocument(mapping, { _id: 7, title: 'A', released: '1979-05-25', secret: 'x', other: 1, tags: 'one' });
    assert.deepEqual(doc.stored, { _id: '7', title: 'A', released: '1979-05-25', tags: 'one' });
    assert.deepEqual(Object.keys(doc.stored)[0], '_id');
    assert.deepEqual(doc.values.get('secret'), ['x']);
    assert.equal(doc.values.get('other'), undefined);
  });

  it('accepts string and integer ids and leaves a missing one to the writer', () => {
    assert.equal(validateDocument(mapping, { _id: 'abc' }).id, 'abc');
    assert.equal(validateDocument(mapping, { _id: -42 }).id, '-42');
    assert.equal(validateDocument(mapping, { _id: null }).id, undefined);
    assert.equal(validateDocument(mapping, {}).id, undefined);
    assert.deepEqual(validateDocument(mapping, {}).values.get('_id'), []);
  });

  it('rejects ids that are neither a non-empty string nor a safe integer', () => {
    assertField('_id', true, 'string or integer', 'boolean', 'boolean (true)');
    assertField('_id', { a: 1 }, 'string or integer', 'object', 'object');
    assertField('_id', ['a'], 'string or integer', 'array', 'array');
    assertField('_id', 1.5, 'string or integer', 'number 1.5 (not an integer)', 'number 1.5 (not an integer)');
    assertField('_id', 2 ** 53, 'string or integer', 'number 9007199254740992 (out of safe integer range)', 'number 9007199254740992 (out of safe integer range)');
    assertField('_id', '', 'string or integer', 'string (empty)', 'string ("", empty)');
  });

  it('rejects a document that is not an object', () => {
    for (const [raw, actual] of [[[], 'array'], ['x', 'string'], [null, 'null'], [3, 'number'], [undefined, 'missing']] as const) {
      assertInvalid(raw, { expected: 'object', actual, message: `line 3: expected a JSON object, got ${actual}` }, { line: 3 });
    }
  });

  it('names source, line, field, expected and actual for a number given as a string', () => {
    assertInvalid(
      { year: '1999' },
      { field: 'year', expected: 'int', actual: 'string', message: 'movies.jsonl, line 12: field "year": expected int, got string ("1999")' },
      { source: 'movies.jsonl', line: 12, offset: 400 },
    );
    assertInvalid(
      { year: '1999' },
      { field: 'year', expected: 'int', actual: 'string', message: 'document 3, offset 10: field "year": expected int, got string ("1999")' },
      { ordinal: 3, offset: 10 },
    );
  });

  it('rejects each type given the wrong JSON type', () => {
    assertField('title', 5, 'text', 'number', 'number (5)');
    assertField('title', { a: 1 }, 'text', 'object', 'object');
    assertField('tags', [true], 'text', 'boolean', 'boolean (true)');
    assertField('year', true, 'int', 'boolean', 'boolean (true)');
    assertField('views', '5', 'long', 'string', 'string ("5")');
    assertField('score', '0.5', 'float', 'string', 'string ("0.5")');
    assertField('rating', {}, 'double', 'object', 'object');
    assertField('ok', 'true', 'bool', 'string', 'string ("true")');
    assertField('ok', 1, 'bool', 'number', 'number (1)');
    assertField('released', 20200101, 'date', 'number', 'number (20200101)');
    assertField('updated', false, 'datetime', 'boolean', 'boolean (false)');
    assertField('flags', ['yes'], 'bool', 'string', 'string ("yes")');
  });

  it('rejects arrays in single-valued fields and nested arrays in multi-valued ones', () => {
    assertField('title', ['a'], 'text', 'array', 'array');
    assertField('year', [], 'int', 'array', 'array');
    assertField('tags', [['a']], 'text', 'array', 'array');
  });

  it('accepts a single value or an array with nulls in multi-valued fields', () => {
    assert.deepEqual(valuesOf({ tags: 'one' }, 'tags'), ['one']);
    assert.deepEqual(valuesOf({ years: [1, null, 2] }, 'years'), [1, 2]);
    assert.deepEqual(valuesOf({ days: '2020-01-01' }, 'days'), [Date.UTC(2020, 0, 1)]);
  });

  it('checks integer ranges and float finiteness', () => {
    assert.deepEqual(valuesOf({ year: -(2 ** 31) }, 'year'), [-(2 ** 31)]);
    assert.deepEqual(valuesOf({ year: 2 ** 31 - 1 }, 'year'), [2 ** 31 - 1]);
    assertField('year', 3_000_000_000, 'int', 'number 3000000000 (out of int range)', 'number 3000000000 (out of int range)');
    assertField('years', [1, -(2 ** 31) - 1], 'int', 'number -2147483649 (out of int range)', 'number -2147483649 (out of int range)');
    assertField('year', 1.5, 'int', 'number 1.5 (not an integer)', 'number 1.5 (not an integer)');
    assertField('views', 2 ** 53, 'long', 'number 9007199254740992 (out of long range)', 'number 9007199254740992 (out of long range)');
    assertField('counts', [0.25], 'long', 'number 0.25 (not an integer)', 'number 0.25 (not an integer)');
    assertField('score', 1e39, 'float', 'number 1e+39 (out of float range)', 'number 1e+39 (out of float range)');
    assertField('rating', Number.NaN, 'double', 'number NaN (not finite)', 'number NaN (not finite)');
    assertField('ratings', [Infinity], 'double', 'number Infinity (not finite)', 'number Infinity (not finite)');
  });

  it('rejects impossible dates and non-ISO date-times', () => {
    assertField('released', '2019-02-29', 'date', 'string (not a valid YYYY-MM-DD date)', 'string ("2019-02-29", not a valid YYYY-MM-DD date)');
    assertField('released', '2019-02-01T00:00:00Z', 'date', 'string (not a valid YYYY-MM-DD date)', 'string ("2019-02-01T00:00:00Z", not a valid YYYY-MM-DD date)');
    assertField('updated', 'yesterday', 'datetime', 'string (not a valid ISO-8601 date-time)', 'string ("yesterday", not a valid ISO-8601 date-time)');
    assertField('times', [1.5], 'datetime', 'number 1.5 (not an integer of epoch milliseconds)', 'number 1.5 (not an integer of epoch milliseconds)');
  });

  it('shortens long strings in messages', () => {
    const long = 'x'.repeat(100);
    assertInvalid({ year: long }, { field: 'year', expected: 'int', actual: 'string', message: `field "year": expected int, got string ("${'x'.repeat(40)}…")` });
  });

  it('rejects a required field that is missing, null or an empty array', () => {
    assertInvalid({ tags: ['a'] }, { field: 'title', expected: 'text', actual: 'missing', message: 'field "title": expected text, got missing' }, undefined, strict);
    assertInvalid({ title: null, tags: ['a'] }, { field: 'title', expected: 'text', actual: 'null', message: 'field "title": expected text, got null' }, undefined, strict);
    assertInvalid(
      { title: 'a', tags: [null] },
      { field: 'tags', expected: 'text[]', actual: 'array (empty)', message: 'field "tags": expected text[], got array (empty)' },
      undefined,
      strict,
    );
    assert.deepEqual(validateDocument(strict, { title: 'a', tags: 'b' }).values.get('tags'), ['b']);
  });

  it('reads dotted fields from nested objects and stores them nested', () => {
    const doc = validateDocument(mapping, { meta: { author: 'Ann', stats: { pages: 12, words: 9 }, other: 1 } });
    assert.deepEqual(doc.values.get('meta.author'), ['Ann']);
    assert.deepEqual(doc.values.get('meta.stats.pages'), [12]);
    assert.deepEqual(doc.stored, { meta: { author: 'Ann', stats: { pages: 12 } } });
  });

  it('reads a dotted field from a literal dotted key too', () => {
    const doc = validateDocument(mapping, { 'meta.author': 'Bo' });
    assert.deepEqual(doc.values.get('meta.author'), ['Bo']);
    assert.deepEqual(doc.stored, { 'meta.author': 'Bo' });
  });

  it('treats a missing or null parent object as no value', () => {
    assert.deepEqual(valuesOf({ meta: null }, 'meta.author'), []);
    assert.deepEqual(valuesOf({ meta: { stats: null } }, 'meta.stats.pages'), []);
  });

  it('rejects a parent of a dotted field that is not an object', () => {
    assertField('meta', 'Ann', 'object', 'string', 'string ("Ann")');
    assertInvalid({ meta: { stats: [1] } }, { field: 'meta.stats', expected: 'object', actual: 'number', message: 'field "meta.stats": expected object, got number (1)' });
    assertInvalid({ meta: { stats: { pages: 'x' } } }, {
      field: 'meta.stats.pages',
      expected: 'int',
      actual: 'string',
      message: 'field "meta.stats.pages": expected int, got string ("x")',
    });
  });

  it('never reads values from Object.prototype', () => {
    assert.deepEqual(valuesOf({}, 'constructor'), []);
    assert.deepEqual(valuesOf({ constructor: 'c' }, 'constructor'), ['c']);
    assert.deepEqual(valuesOf({ meta: {} }, 'meta.author'), []);
  });

  it('either accepts or throws invalid_document for any JSON value', () => {
    const mapped = fc.constantFrom(...mapping.fields.map((f) => f.name), 'meta');
    const doc = fc.dictionary(mapped, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 });
    fc.assert(
      fc.property(fc.oneof(doc, fc.jsonValue()), (raw) => {
        try {
          const valid = validateDocument(mapping, raw);
          for (const f of mapping.fields) assert.ok(Array.isArray(valid.values.get(f.name)));
          JSON.stringify(valid.stored);
        } catch (error) {
          assert.ok(error instanceof YarrowError && error.code === ErrorCode.invalidDocument, String(error));
        }
      }),
    );
  });
});

describe('describeJsonType', () => {
  it('names JSON types, and missing for undefined', () => {
    assert.deepEqual(
      ['s', 1, true, null, [], {}, undefined].map(describeJsonType),
      ['string', 'number', 'boolean', 'null', 'array', 'object', 'missing'],
    );
  });
});
