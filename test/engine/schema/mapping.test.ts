import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { analyzerNames } from '../../../src/engine/analysis/analyzers.js';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { fieldTypes, mappingFromJson, mappingToJson, parseMapping } from '../../../src/engine/schema/mapping.js';
import type { FieldMapping } from '../../../src/engine/schema/mapping.js';

const typeList = 'id, text, text[], int, long, float, double, bool, date, datetime, int[], long[], float[], double[], bool[], date[], datetime[], geopoint';

/** Asserts that `fn` throws invalid_mapping at `path` with a message starting `<path>: <reason>`. */
function assertMappingError(fn: () => unknown, path: string, reason?: string): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof YarrowError, String(error));
    assert.equal(error.code, ErrorCode.invalidMapping);
    assert.equal(error.details.field, path);
    assert.ok(error.message.startsWith(`${path}: `), error.message);
    if (reason !== undefined) assert.equal(error.message, `${path}: ${reason}`);
    return true;
  });
}

const movies = {
  fields: {
    _id: { type: 'id' },
    title: { type: 'text', search: { lexical: { analyze: 'english' } }, sort: true },
    overview: { type: 'text', search: { lexical: { analyze: 'english' } } },
    genres: { type: 'text[]', search: false, filter: true, facet: true },
    year: { type: 'int', filter: true, sort: true, facet: true },
    rating: { type: 'double', filter: true, sort: true },
    released: { type: 'date', filter: true, sort: true },
  },
};

describe('fieldTypes', () => {
  it('lists every type the spec names, array forms last', () => {
    assert.equal(fieldTypes.join(', '), typeList);
  });
});

describe('parseMapping', () => {
  it('parses the spec example with its flags and analyzers', () => {
    const m = parseMapping(movies, 'schema.movies');
    assert.deepEqual(
      m.fields.map((f) => f.name),
      ['_id', 'title', 'overview', 'genres', 'year', 'rating', 'released'],
    );
    assert.deepEqual(m.field('title'), {
      name: 'title', type: 'text', baseType: 'text', multi: false,
      store: true, filter: false, facet: false, sort: true, required: false, analyzer: 'english', suggest: null, semantic: null,
    });
    assert.deepEqual(m.field('genres'), {
      name: 'genres', type: 'text[]', baseType: 'text', multi: true,
      store: true, filter: true, facet: true, sort: false, required: false, analyzer: null, suggest: null, semantic: null,
    });
    assert.equal(m.field('year')?.baseType, 'int');
    assert.equal(m.field('year')?.analyzer, null);
    assert.equal(m.field('missing'), undefined);
  });

  it('adds an implicit _id first when none is declared', () => {
    const m = parseMapping({ fields: { title: { type: 'text' } } }, 'schema.x');
    assert.deepEqual(m.fields[0], {
      name: '_id', type: 'id', baseType: 'id', multi: false,
      store: true, filter: false, facet: false, sort: false, required: false, analyzer: null, suggest: null, semantic: null,
    });
    assert.equal(m.fields.length, 2);
  });

  it('keeps a declared _id where it was declared', () => {
    const m = parseMapping({ fields: { title: { type: 'text' }, _id: { type: 'id', sort: true } } }, 'schema.x');
    assert.deepEqual(m.fields.map((f) => f.name), ['title', '_id']);
    assert.equal(m.field('_id')?.sort, true);
  });

  it('applies defaults: stored, not required, standard analyzer for text only', () => {
    const m = parseMapping({ fields: { t: { type: 'text' }, n: { type: 'long[]' } } }, 'schema.x');
    assert.deepEqual(
      [m.field('t'), m.field('n')].map((f) => [f?.store, f?.filter, f?.facet, f?.sort, f?.required, f?.analyzer, f?.multi]),
      [
        [true, false, false, false, false, 'standard', false],
        [true, false, false, false, false, null, true],
      ],
    );
  });

  it('accepts every search form for text fields', () => {
    const m = parseMapping(
      {
        fields: {
          a: { type: 'text', search: true },
          b: { type: 'text', search: false },
          c: { type: 'text[]', search: { lexical: { analyze: 'english' } } },
          d: { type: 'text', search: { lexical: {} } },
          e: { type: 'int', search: false },
        },
      },
      'schema.x',
    );
    assert.deepEqual(['a', 'b', 'c', 'd', 'e'].map((n) => m.field(n)?.analyzer), ['standard', null, 'english', 'standard', null]);
  });

  it('accepts every analyzer the analysis layer registers', () => {
    for (const analyze of analyzerNames) {
      const m = parseMapping({ fields: { t: { type: 'text', search: { lexical: { analyze } } } } }, 'schema.x');
      assert.equal(m.field('t')?.analyzer, analyze);
    }
  });

  it('allows dotted names for nested values', () => {
    const m = parseMapping({ fields: { 'meta.author': { type: 'text' }, 'meta.pages': { type: 'int' } } }, 'schema.x');
    assert.equal(m.field('meta.author')?.baseType, 'text');
    assert.equal(m.field('meta.pages')?.baseType, 'int');
  });

  it('names the full path of an unknown type', () => {
    assertMappingError(
      () => parseMapping({ fields: { year: { type: 'integer' } } }, 'schema.movies'),
      'schema.movies.fields.year.type',
      `expected one of ${typeList} but got "integer"`,
    );
    assertMappingError(() => parseMapping({ fields: { year: {} } }, 'schema.movies'), 'schema.movies.fields.year.type', `expected one of ${typeList} but got nothing`);
    assertMappingError(() => parseMapping({ fields: { year: { type: 5 } } }, 'schema.movies'), 'schema.movies.fields.year.type', `expected one of ${typeList} but got 5`);
    assertMappingError(() => parseMapping({ fields: { ids: { type: 'id[]' } } }, 's'), 's.fields.ids.type');
  });

  it('rejects malformed structure with the path of the offending value', () => {
    assertMappingError(() => parseMapping(null, 'schema.x'), 'schema.x', 'expected an object but got null');
    assertMappingError(() => parseMapping([], 'schema.x'), 'schema.x', 'expected an object but got an array');
    assertMappingError(() => parseMapping({}, 'schema.x'), 'schema.x.fields', 'expected an object but got nothing');
    assertMappingError(() => parseMapping({ fields: {}, extra: 1 }, 'schema.x'), 'schema.x.extra', 'unknown key; expected "fields"');
    assertMappingError(() => parseMapping({ fields: { t: 'text' } }, 'schema.x'), 'schema.x.fields.t', 'expected an object but got "text"');
    assertMappingError(() => parseMapping({ fields: { t: null } }, 'schema.x'), 'schema.x.fields.t', 'expected an object but got null');
    assertMappingError(
      () => parseMapping({ fields: { t: { type: 'text', index: true } } }, 'schema.x'),
      'schema.x.fields.t.index',
      'unknown key; expected one of type, store, filter, facet, sort, required, search, suggest (use search, filter, facet or sort)',
    );
  });

  it('rejects flags that are not booleans', () => {
    for (const key of ['store', 'filter', 'facet', 'sort', 'required']) {
      assertMappingError(
        () => parseMapping({ fields: { t: { type: 'text', [key]: 'yes' } } }, 'schema.x'),
        `schema.x.fields.t.${key}`,
        'expected true or false but got "yes"',
      );
    }
  });

  it('rejects malformed search settings', () => {
    const at = (search: unknown, type = 'text'): (() => unknown) => () => parseMapping({ fields: { t: { type, search } } }, 'schema.x');
    assertMappingError(at(true, 'int'), 'schema.x.fields.t.search');
    assertMappingError(at({ lexical: {} }, 'date'), 'schema.x.fields.t.search');
    assertMappingError(at('english'), 'schema.x.fields.t.search', 'expected an object but got "english"');
    assertMappingError(at({ vector: {} }), 'schema.x.fields.t.search.vector', 'unknown key; expected one of lexical, semantic');
    assertMappingError(
      at({ semantic: {} }),
      'schema.x.fields.t.search.semantic',
      'expected "model" (an inference.embedding model that embeds the text) or "dim" (the size of pre-embedded vectors)',
    );
    assertMappingError(at({ lexical: 'english' }), 'schema.x.fields.t.search.lexical', 'expected an object but got "english"');
    assertMappingError(at({ lexical: { analyzer: 'english' } }), 'schema.x.fields.t.search.lexical.analyzer', 'unknown key; expected "analyze"');
    assertMappingError(
      at({ lexical: { language: 'en' } }),
      'schema.x.fields.t.search.lexical.language',
      'unknown key; expected "analyze" (the key is "analyze", e.g. analyze: en)',
    );
    assertMappingError(at({ type: 'lexical', language: 'en' }), 'schema.x.fields.t.search.type');
    assertMappingError(
      at({ lexical: { analyze: 'klingon' } }),
      'schema.x.fields.t.search.lexical.analyze',
      `expected one of ${analyzerNames.join(', ')} but got "klingon"`,
    );
  });

  it('reserves type id for _id and requires _id to have it', () => {
    assertMappingError(() => parseMapping({ fields: { _id: { type: 'int' } } }, 'schema.x'), 'schema.x.fields._id.type', 'the _id field must have type id');
    // Nixiesearch reads a text _id as the id field.
    assert.equal(parseMapping({ fields: { _id: { type: 'text' } } }, 'schema.x').field('_id')?.type, 'id');
    assertMappingError(() => parseMapping({ fields: { ref: { type: 'id' } } }, 'schema.x'), 'schema.x.fields.ref.type', 'type id is reserved for the _id field');
  });

  it('rejects names that cannot address a document value', () => {
    assertMappingError(() => parseMapping({ fields: { '': { type: 'text' } } }, 'schema.x'), 'schema.x.fields.', 'field names must not be empty');
    assertMappingError(() => parseMapping({ fields: { 'a..b': { type: 'text' } } }, 'schema.x'), 'schema.x.fields.a..b');
    assertMappingError(() => parseMapping({ fields: { '.a': { type: 'text' } } }, 'schema.x'), 'schema.x.fields..a');
    const proto = JSON.parse('{"fields":{"__proto__":{"type":"text"}}}') as unknown;
    assertMappingError(() => parseMapping(proto, 'schema.x'), 'schema.x.fields.__proto__');
  });

  it('rejects a field nested under another field', () => {
    assertMappingError(
      () => parseMapping({ fields: { meta: { type: 'text' }, 'meta.author': { type: 'text' } } }, 'schema.x'),
      'schema.x.fields.meta.author',
      'conflicts with field "meta", which would have to be an object',
    );
    assertMappingError(() => parseMapping({ fields: { '_id.x': { type: 'text' } } }, 'schema.x'), 'schema.x.fields._id.x');
  });
});

const fieldSpec = fc.record(
  {
    type: fc.constantFrom(...fieldTypes.filter((t) => t !== 'id')),
    store: fc.boolean(),
    filter: fc.boolean(),
    facet: fc.boolean(),
    sort: fc.boolean(),
    required: fc.boolean(),
  },
  { requiredKeys: ['type'] },
);

const rawMapping = fc
  .uniqueArray(fc.tuple(fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/), fieldSpec, fc.constantFrom(...analyzerNames), fc.boolean()), {
    selector: ([name]) => name,
    maxLength: 12,
  })
  .map((entries) => ({
    fields: Object.fromEntries(
      entries.map(([name, spec, analyze, searchable]) => [
        name,
        spec.type.startsWith('text') ? { ...spec, search: searchable ? { lexical: { analyze } } : false } : spec,
      ]),
    ),
  }));

describe('mappingToJson', () => {
  it('round-trips through JSON text and mappingFromJson exactly', () => {
    fc.assert(
      fc.property(rawMapping, (raw) => {
        const m = parseMapping(raw, 'schema.p');
        const json = mappingToJson(m);
        const back = mappingFromJson(JSON.parse(JSON.stringify(json)));
        assert.deepEqual(back.fields, m.fields);
        assert.deepEqual(mappingToJson(back), json);
        for (const f of m.fields) assert.deepEqual(back.field(f.name), f);
      }),
    );
  });

  it('writes every flag explicitly', () => {
    const json = mappingToJson(parseMapping({ fields: { t: { type: 'text' } } }, 's'));
    assert.deepEqual(json, {
      fields: [
        { name: '_id', type: 'id', store: true, filter: false, facet: false, sort: false, required: false, analyzer: null },
        { name: 't', type: 'text', store: true, filter: false, facet: false, sort: false, required: false, analyzer: 'standard' },
      ],
    });
  });
});

describe('mappingFromJson', () => {
  const idJson = { name: '_id', type: 'id', store: true, filter: false, facet: false, sort: false, required: false, analyzer: null };
  const textJson = { name: 't', type: 'text', store: true, filter: false, facet: false, sort: false, required: false, analyzer: 'standard' };
  const withField = (f: Record<string, unknown>): unknown => ({ fields: [idJson, f] });

  it('derives baseType and multi from the type', () => {
    const m = mappingFromJson(withField({ ...textJson, type: 'text[]' }));
    const t: FieldMapping | undefined = m.field('t');
    assert.ok(t !== undefined);
    assert.equal(t.baseType, 'text');
    assert.equal(t.multi, true);
  });

  it('rejects malformed manifests with the path of the offending value', () => {
    assertMappingError(() => mappingFromJson('x'), 'mapping', 'expected an object but got "x"');
    assertMappingError(() => mappingFromJson({ fields: {} }), 'mapping.fields', 'expected an array but got an object');
    assertMappingError(() => mappingFromJson({ fields: [idJson], x: 1 }), 'mapping.x');
    assertMappingError(() => mappingFromJson({ fields: [textJson] }), 'mapping.fields', 'the _id field is missing');
    assertMappingError(() => mappingFromJson({ fields: [idJson, textJson, textJson] }), 'mapping.fields[2].name', 'duplicate field "t"');
    assertMappingError(() => mappingFromJson(withField({ ...textJson, extra: 1 })), 'mapping.fields[1].extra');
    const { store: _store, ...noStore } = textJson;
    assertMappingError(() => mappingFromJson(withField(noStore)), 'mapping.fields[1].store', 'missing');
    assertMappingError(() => mappingFromJson(withField({ ...textJson, name: 3 })), 'mapping.fields[1].name', 'expected a string but got 3');
    assertMappingError(() => mappingFromJson(withField({ ...textJson, type: 'integer' })), 'mapping.fields[1].type');
    assertMappingError(() => mappingFromJson(withField({ ...textJson, filter: 1 })), 'mapping.fields[1].filter', 'expected true or false but got 1');
    assertMappingError(
      () => mappingFromJson(withField({ ...textJson, type: 'int', analyzer: 'standard' })),
      'mapping.fields[1].analyzer',
      'expected null but got "standard"',
    );
    assertMappingError(() => mappingFromJson(withField({ ...textJson, analyzer: 7 })), 'mapping.fields[1].analyzer');
    assertMappingError(() => mappingFromJson({ fields: [{ ...idJson, type: 'text' }] }), 'mapping.fields[0].type');
    assertMappingError(
      () => mappingFromJson({ fields: [idJson, { ...textJson, name: 'a' }, { ...textJson, name: 'a.b' }] }),
      'mapping.fields[2]',
    );
  });
});
