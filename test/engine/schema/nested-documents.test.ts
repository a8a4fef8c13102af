import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { validateDocument } from '../../../src/engine/schema/document.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';

const mapping = parseMapping(
  {
    fields: {
      title: { type: 'text' },
      'tracks.name': { type: 'text[]' },
      'tracks.length': { type: 'int[]', store: false },
      'authors.name': { type: 'text' },
      'extra_*': { type: 'text', filter: true },
      'meta.field_*_str': { type: 'text' },
      'num_*': { type: 'int[]', store: false },
      'parts.n_*': { type: 'int[]' },
      location: { type: 'geopoint' },
    },
  },
  'schema.x',
);

function invalid(raw: unknown): Record<string, unknown> {
  try {
    validateDocument(mapping, raw, { line: 7 });
  } catch (e) {
    assert.ok(e instanceof YarrowError);
    assert.equal(e.code, ErrorCode.invalidDocument);
    return { message: e.message, ...e.details };
  }
  return assert.fail('expected invalid_document');
}

describe('validateDocument (nested documents and wildcard fields)', () => {
  it('reads arrays of objects as repeated values and stores them in the same shape', () => {
    const doc = validateDocument(mapping, {
      title: 'Album',
      tracks: [{ name: 'yellow submarine', length: 158, lyrics: 'x' }, null, { name: 'smells like teen spirit', length: 301 }],
    });
    assert.deepEqual(doc.values.get('tracks.name'), ['yellow submarine', 'smells like teen spirit']);
    assert.deepEqual(doc.values.get('tracks.length'), [158, 301]);
    // Only the stored subfields are kept, element by element; revalidating the stored form gives the same values.
    assert.deepEqual(doc.stored, { title: 'Album', tracks: [{ name: 'yellow submarine' }, null, { name: 'smells like teen spirit' }] });
    assert.deepEqual(validateDocument(mapping, doc.stored).values.get('tracks.name'), doc.values.get('tracks.name'));
  });

  it('rejects repeated values through an array of objects in a single-valued field, naming line, field and types', () => {
    assert.deepEqual(invalid({ authors: [{ name: 'a' }, { name: 'b' }] }), {
      message: 'line 7: field "authors.name": expected text, got array (repeated through an array of objects: map it as a [] type)',
      line: 7,
      field: 'authors.name',
      expected: 'text',
      actual: 'array (repeated through an array of objects: map it as a [] type)',
    });
    assert.equal(invalid({ tracks: [{ name: 3 }] }).message, 'line 7: field "tracks.name": expected text, got number (3)');
  });

  it('gives document fields that match a wildcard its mapping, nested ones included, and stores them', () => {
    const doc = validateDocument(mapping, {
      extra_color: 'red',
      extra_size: 'XL',
      meta: { field_title_str: 'T', field_title: 'not mapped', other: 1 },
      num_a: [1, 2],
      unmapped: 'dropped',
    });
    assert.deepEqual(doc.values.get('extra_color'), ['red']);
    assert.deepEqual(doc.values.get('extra_size'), ['XL']);
    assert.deepEqual(doc.values.get('meta.field_title_str'), ['T']);
    assert.deepEqual(doc.values.get('num_a'), [1, 2]);
    assert.equal(doc.values.has('meta.field_title'), false);
    assert.equal(doc.values.has('unmapped'), false);
    assert.deepEqual(doc.stored, { extra_color: 'red', extra_size: 'XL', meta: { field_title_str: 'T' } });
  });

  it('checks wildcard-matched values against the pattern\'s type', () => {
    assert.deepEqual(invalid({ num_b: ['x'] }), {
      message: 'line 7: field "num_b": expected int, got string ("x")',
      line: 7,
      field: 'num_b',
      expected: 'int',
      actual: 'string',
    });
    assert.equal(invalid({ extra_tags: ['a', 'b'] }).field, 'extra_tags');
  });

  it('collects wildcard matches inside arrays of objects as repetitions', () => {
    const doc = validateDocument(mapping, { parts: [{ n_x: 1, other: 0 }, { n_x: [2, 3] }] });
    assert.deepEqual(doc.values.get('parts.n_x'), [1, 2, 3]);
    assert.deepEqual(doc.stored, { parts: [{ n_x: 1 }, { n_x: [2, 3] }] });
    assert.equal(
      invalid({ meta: [{ field_a_str: 'x' }, { field_a_str: 'y' }] }).message,
      'line 7: field "meta.field_a_str": expected text, got array (repeated through an array of objects: map it as a [] type)',
    );
  });

  it('validates and stores geopoints without indexing them', () => {
    const doc = validateDocument(mapping, { location: { lat: 52.5, lon: 13.4 } });
    assert.deepEqual(doc.values.get('location'), []);
    assert.deepEqual(doc.stored, { location: { lat: 52.5, lon: 13.4 } });
    assert.equal(invalid({ location: { lat: 91, lon: 0 } }).field, 'location.lat');
    assert.equal(invalid({ location: '52.5,13.4' }).expected, 'geopoint {"lat","lon"}');
  });
});
