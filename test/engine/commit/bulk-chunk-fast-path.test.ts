/**
 * The bulk load's flat-line fast path (`flat-json-bytes.ts`) against the general path (JSON.parse,
 * validateDocument, JSON.stringify): for any chunk of lines, valid or not, both give the same
 * segment bytes, or the same error (message and details naming line, field, expected and actual).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { getAnalyzer } from '../../../src/engine/analysis/index.js';
import { BulkBuffer } from '../../../src/engine/commit/bulk-chunk.js';
import { YarrowError } from '../../../src/engine/errors.js';
import { flatPlanOf } from '../../../src/engine/schema/flat-json-line.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';
import type { Mapping } from '../../../src/engine/schema/mapping.js';

const english = { type: 'text', search: { lexical: { analyze: 'english' } } };
const mapping = parseMapping({
  fields: {
    _id: { type: 'id' },
    title: english,
    body: { ...english, store: false },
    tags: { type: 'text[]', search: false, filter: true, facet: true },
    year: { type: 'int', filter: true, sort: true },
    views: { type: 'long', sort: true },
    rating: { type: 'double', filter: true },
    ratio: { type: 'float', filter: true },
    ok: { type: 'bool', filter: true },
    day: { type: 'date', filter: true },
    at: { type: 'datetime', sort: true },
    constructor: english,
    where: { type: 'geopoint' },
  },
}, 'fast');

const keys = ['_id', 'title', 'body', 'tags', 'year', 'views', 'rating', 'ratio', 'ok', 'day', 'at', 'constructor', 'where', 'other', 'more', '__proto__', 'titl', 'title2'];

/** Strings with the characters that matter to a JSON scanner: quotes, backslashes, controls, non-ASCII, surrogate pairs. */
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'run', 'Running', 'é', '"', '\\', '\n', '\t', '\u0001', '/', '😀', '中', '\u2028') , maxLength: 12 }),
  fc.constantFrom('2024-02-29', '2023-13-01', '2024-01-01T10:00:00Z', 'not a date', ''),
);
const leaf = fc.oneof(
  text,
  fc.integer({ min: -3_000_000_000, max: 3_000_000_000 }),
  fc.double({ noNaN: true }),
  fc.constantFrom(0, -0, 1.5, 1e21, 2 ** 53, 3.5e38, true, false, null),
);
const value = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.array(leaf, { maxLength: 2 }), { maxLength: 2 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('lat', 'lon', 'x'), fc.oneof(fc.double({ min: -200, max: 200, noNaN: true }), text), { maxKeys: 3 }) },
);
/** A document, most often a valid one. */
const validDoc = fc.record({
  _id: fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.nat(), fc.constant(undefined)),
  title: fc.oneof(text, fc.constant(undefined)),
  body: fc.oneof(text, fc.constant(undefined)),
  tags: fc.oneof(fc.array(text, { maxLength: 3 }), fc.constant(undefined)),
  year: fc.oneof(fc.integer({ min: 1900, max: 2100 }), fc.constant(undefined)),
  rating: fc.oneof(fc.double({ min: 0, max: 10, noNaN: true }), fc.constant(undefined)),
  ok: fc.oneof(fc.boolean(), fc.constant(undefined)),
  day: fc.oneof(fc.constant('2024-02-29'), fc.constant(undefined)),
  other: fc.oneof(value, fc.constant(undefined)),
}, { requiredKeys: [] });
const anyDoc = fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 6 });

/** A document as a line: JSON.stringify, at times with whitespace, escaped keys or a key repeated. */
const line = fc.tuple(fc.oneof(validDoc, anyDoc), fc.constantFrom('plain', 'spaced', 'escaped-key', 'repeated', 'numbers', 'escapes')).map(([doc, style]) => {
  const json = JSON.stringify(doc);
  switch (style) {
    case 'spaced':
      return ` ${JSON.stringify(doc, null, 1).replaceAll('\n', ' ')}\r`;
    case 'escaped-key':
      return json.replace('"title"', '"t\\u0069tle"');
    case 'repeated':
      return json.length > 2 ? `${json.slice(0, -1)},"title":"again"}` : json;
    case 'numbers':
      // Numbers as JSON may write them but JSON.stringify does not.
      return json.replace(/([:,[])(-?\d+)(?=[,}\]])/g, (_, before: string, n: string) => `${before}${n}.0e0`);
    case 'escapes':
      // Escapes JSON.stringify does not write: \/ and \u.
      return json.replaceAll('/', '\\/').replaceAll('é', '\\u00e9').replaceAll('\\n', '\\u000A');
    default:
      return json;
  }
});

/** A line mangled at one place: most such lines are invalid JSON. */
const mangled = fc.tuple(line, fc.nat(), fc.constantFrom('', '"', '\\', ',', '}', ']', '{', ':', '\t', '\u0000', '\u001f', '\u007f', '-', '+', '.', 'e', 'E', '0', '01', 'tru', 'nul', 'x', '\\u12', '\\x', ' ')).map(
  ([l, at, insert]) => {
    const i = at % (l.length + 1);
    return l.slice(0, i) + insert + l.slice(i + (at % 2));
  },
);

interface Outcome {
  readonly files?: [string, Uint8Array][];
  readonly deleted?: readonly number[];
  readonly error?: { message: string; details: unknown };
}

/** The fast path or the general path. */
type Path = 'bytes' | 'general';

async function load(m: Mapping, chunk: string | Uint8Array, path: Path): Promise<Outcome> {
  const buffer = new BulkBuffer(m, getAnalyzer, path === 'bytes');
  try {
    buffer.addChunk(typeof chunk === 'string' ? Buffer.from(chunk) : chunk, 1, 'input.jsonl', 'test:');
  } catch (e) {
    if (!(e instanceof YarrowError)) throw e;
    return { error: { message: e.message, details: e.details } };
  }
  const { flushed } = await buffer.flush('_0');
  return { files: [...flushed.files].sort(([a], [b]) => (a < b ? -1 : 1)), deleted: flushed.deletedDocs };
}

describe('bulk load fast path', () => {
  it('gives the same segment bytes or the same error as the general path', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof({ weight: 4, arbitrary: line }, { weight: 1, arbitrary: mangled }), { minLength: 1, maxLength: 8 }), async (lines) => {
        const chunk = `${lines.join('\n')}\n`;
        const general = await load(mapping, chunk, 'general');
        assert.deepEqual(await load(mapping, chunk, 'bytes'), general);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same segment bytes at the edges of a chunk: BOM, CRLF, blank lines, no last newline, huge and non-ASCII values', async () => {
    const chunks: (string | Uint8Array)[] = [
      '\ufeff{"_id":"a","title":"first"}\r\n\r\n  \t\n{"title":"derived id"}\r\n{"_id":7,"year":2001,"ok":true,"rating":null}',
      `{"_id":"big","title":"${'lorem ipsum '.repeat(50_000)}","body":"${'x'.repeat(200_000)}"}\n\n`,
      '{"_id":"u","title":"Caf\u00e9 caf\u00e9 na\\u00efve \\/ \\" \\\\ \\t","tags":["é","b"],"other":"東京"}\n{"_id":"u","title":"replaced"}\n',
      Buffer.concat([Buffer.from('{"_id":"bad","title":"ok","other":"'), Buffer.from([0xe2, 0x28, 0xa1, 0xff]), Buffer.from('"}\n{"_id":"bad2","title":"'), Buffer.from([0xc3]), Buffer.from('"}\n')]),
      '{"_id":"東京","title":"Crème brûlée 東京タワー 😀👍🏽 \\ud83d\\ude00 \\ud83d lone","tags":["ü"],"título":"é","body":"Straße"}\n{"_id":"😀","title":"\u2028\ufffd"}\n',
      Buffer.concat([Buffer.from('{"_id":"o","title":"overlong '), Buffer.from([0xc0, 0xaf, 0xe0, 0x80, 0xaf]), Buffer.from('"}\n{"_id":"s","title":"surrogate '), Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('"}\n{"_id":"k","t'), Buffer.from([0xff]), Buffer.from('tle":"bad key"}\n{"_id":"'), Buffer.from([0xf4, 0x90, 0x80, 0x80]), Buffer.from('","title":"bad id"}\n')]),
      '{"_id":"a","title":"x"}\n{"_id":"b","year":"1999"}\n',
      '{"_id":"a","title":"é"}\n{"_id":"b","year":"1999é"}\n',
      '{"_id":"a","title":"x"}\n{"_id":"b","title":"x"\n',
    ];
    for (const chunk of chunks) {
      const general = await load(mapping, chunk, 'general');
      assert.deepEqual(await load(mapping, chunk, 'bytes'), general);
    }
  });

  it('gives a line with `_id: null` its line\'s id, as a line without `_id`', () => {
    for (const fast of [true, false]) {
      const ids = (chunk: string): readonly string[] => {
        const buffer = new BulkBuffer(mapping, getAnalyzer, fast);
        buffer.addChunk(Buffer.from(chunk), 1, 'input.jsonl', 'test:');
        return buffer.buffer.docIds;
      };
      assert.deepEqual(ids('{"_id":"a"}\n{"_id":null,"title":"n"}\n'), ids('{"_id":"a"}\n{"title":"n"}\n'));
    }
  });

  it('leaves mappings it does not cover to the general path', () => {
    // Mappings the fast path does not cover.
    assert.equal(flatPlanOf(parseMapping({ fields: { 'a.b': english } }, 'dotted')), null);
    assert.equal(flatPlanOf(parseMapping({ fields: { '*_t': english } }, 'wildcard')), null);
    assert.equal(flatPlanOf(parseMapping({ fields: { 7: english } }, 'index-like')), null);
  });
});
