import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { mappingFromJson, mappingToJson, parseMapping } from '../../../src/engine/schema/mapping.js';

function problemsOf(raw: unknown): { path: string; reason: string }[] {
  try {
    parseMapping(raw, 'schema.x');
  } catch (e) {
    assert.ok(e instanceof YarrowError);
    assert.equal(e.code, ErrorCode.invalidMapping);
    return e.details.problems as { path: string; reason: string }[];
  }
  return assert.fail('expected an invalid_mapping error');
}

describe('parseMapping (Nixiesearch 0.8 field options)', () => {
  it('keeps suggest in both its forms, with Nixiesearch\'s defaults', () => {
    const m = parseMapping(
      {
        fields: {
          a: { type: 'text', suggest: true },
          b: { type: 'text[]', suggest: { lowercase: true, expand: { 'min-terms': 2, 'max-terms': 4 }, analyze: 'english' } },
          c: { type: 'text', suggest: false },
        },
      },
      'schema.x',
    );
    assert.deepEqual(m.field('a')?.suggest, { lowercase: false, minTerms: 1, maxTerms: 3, analyzer: 'standard' });
    assert.deepEqual(m.field('b')?.suggest, { lowercase: true, minTerms: 2, maxTerms: 4, analyzer: 'english' });
    assert.equal(m.field('c')?.suggest, null);
  });

  it('keeps semantic settings: a model reference or a dimension, with HNSW defaults', () => {
    const m = parseMapping(
      {
        fields: {
          both: { type: 'text', search: { lexical: { analyze: 'english' }, semantic: { model: 'e5-small' } } },
          vec: { type: 'text[]', search: { semantic: { dim: 384, ef: 64, m: 32, workers: 2, quantize: 'int8', distance: 'cosine' } } },
        },
      },
      'schema.x',
    );
    assert.equal(m.field('both')?.analyzer, 'english');
    assert.deepEqual(m.field('both')?.semantic, { model: 'e5-small', dim: null, ef: 32, m: 16, workers: null, quantize: 'float32', distance: 'dot' });
    // A semantic-only field has no lexical index.
    assert.equal(m.field('vec')?.analyzer, null);
    assert.deepEqual(m.field('vec')?.semantic, { model: null, dim: 384, ef: 64, m: 32, workers: 2, quantize: 'int8', distance: 'cosine' });
  });

  it('round-trips suggest and semantic through the manifest JSON', () => {
    const m = parseMapping(
      { fields: { t: { type: 'text', suggest: { expand: { 'max-terms': 2 } }, search: { semantic: { dim: 8, workers: 3 } } } } },
      'schema.x',
    );
    const back = mappingFromJson(JSON.parse(JSON.stringify(mappingToJson(m))));
    assert.deepEqual(back.fields, m.fields);
  });

  it('reads string and string[] as text and text[], and accepts geopoint', () => {
    const m = parseMapping({ fields: { s: { type: 'string' }, l: { type: 'string[]' }, g: { type: 'geopoint', filter: true } } }, 'schema.x');
    assert.deepEqual([m.field('s')?.type, m.field('l')?.type, m.field('g')?.baseType], ['text', 'text[]', 'geopoint']);
  });

  it('accepts fields as a list of one-key maps, naming list positions in errors', () => {
    const m = parseMapping({ fields: [{ title: { type: 'text' } }, { price: { type: 'float' } }] }, 'schema.x');
    assert.deepEqual(m.fields.map((f) => f.name), ['_id', 'title', 'price']);
    assert.deepEqual(problemsOf({ fields: [{ a: { type: 'nope' } }, { a: { type: 'int' }, b: {} }] }), [
      { path: 'schema.x.fields[1]', reason: 'expected one field per list item ({ <name>: { type: ... } }) but got 2 keys' },
      { path: 'schema.x.fields[0].a.type', reason: 'expected one of id, text, text[], int, long, float, double, bool, date, datetime, int[], long[], float[], double[], bool[], date[], datetime[], geopoint but got "nope"' },
    ]);
  });

  it('reports every problem of a mapping at once', () => {
    const problems = problemsOf({
      fields: {
        a: { type: 'int', facet: 'yes' },
        b: { type: 'text', search: { semantic: { model: 'm', quantize: 'int3' } }, suggest: { expand: { 'min-terms': 3, 'max-terms': 2 } } },
        c: { type: 'bool', suggest: true },
      },
    });
    assert.deepEqual(problems.map((p) => p.path), [
      'schema.x.fields.a.facet',
      'schema.x.fields.b.search.semantic.quantize',
      'schema.x.fields.b.suggest.expand',
      'schema.x.fields.c.suggest',
    ]);
  });

  it('rejects malformed semantic and suggest settings with the path of each value', () => {
    const at = (spec: unknown): string[] => problemsOf({ fields: { t: spec } }).map((p) => `${p.path}: ${p.reason}`);
    assert.deepEqual(at({ type: 'text', search: { semantic: { dim: 9000 } } }), ['schema.x.fields.t.search.semantic.dim: expected an integer from 1 to 8192 but got 9000']);
    assert.deepEqual(at({ type: 'text', search: { semantic: { model: 'm', distance: 'l2' } } }), [
      'schema.x.fields.t.search.semantic.distance: expected one of dot, cosine but got "l2"',
    ]);
    assert.deepEqual(at({ type: 'text', suggest: 'yes' }), ['schema.x.fields.t.suggest: expected an object but got "yes"']);
    assert.deepEqual(at({ type: 'text', suggest: { expand: { min: 1 } } }), ['schema.x.fields.t.suggest.expand.min: unknown key; expected one of min-terms, max-terms']);
  });
});

describe('parseMapping (wildcard names)', () => {
  it('resolves concrete names through a pattern, plain fields first', () => {
    const m = parseMapping({ fields: { title: { type: 'text' }, 'extra_*': { type: 'text', filter: true }, 'meta.field_*_str': { type: 'text' } } }, 'schema.x');
    assert.equal(m.hasWildcards, true);
    assert.deepEqual({ ...m.field('extra_color'), name: 'extra_color' }, m.field('extra_color'));
    assert.equal(m.field('extra_color')?.filter, true);
    assert.equal(m.field('meta.field_title_str')?.name, 'meta.field_title_str');
    assert.equal(m.field('meta.field_title'), undefined);
    assert.equal(m.field('extra_'), undefined, 'the * matches at least one character');
    assert.equal(m.field('title')?.filter, false);
  });

  it('rejects two stars, a star before the last dot, and a plain field a pattern also matches', () => {
    assert.deepEqual(problemsOf({ fields: { 'a*b*': { type: 'text' }, 'x*.y': { type: 'text' } } }).map((p) => p.reason), [
      'wildcard field name "a*b*" has more than one "*"',
      'wildcard field name "x*.y" must have its "*" after the last "."',
    ]);
    assert.deepEqual(problemsOf({ fields: { '*_str': { type: 'text' }, title_str: { type: 'text' } } }), [
      { path: 'schema.x.fields.title_str', reason: 'also matches the wildcard field "*_str": rename one of them' },
    ]);
  });

  it('points at HNSW settings per field when an index has them', () => {
    assert.deepEqual(problemsOf({ fields: {}, hnsw: { m: 16 } }).map((p) => p.reason), [
      'unknown key; expected "fields" (HNSW settings are per field: search: { semantic: { m, ef, workers } })',
    ]);
  });
});
