/**
 * An `_index` body on the inversion thread (`body-batch.ts`): JSON Lines kept as bytes, read by the
 * byte reader, their log entries written as bytes, must give what the general form gives (each
 * document parsed, validated and prepared as a JS object): the same log record once decoded (ids,
 * normalised values, stored JSON), the same segment files byte for byte, and for any invalid body
 * the same error, worded by the general form, at any chunking of the body.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getAnalyzer } from '../../../src/engine/analysis/index.js';
import { BodyBatch } from '../../../src/engine/commit/body-batch.js';
import type { InvalidBatch } from '../../../src/engine/commit/body-batch.js';
import { IdFilterBuilder } from '../../../src/engine/commit/id-filter.js';
import { prepare } from '../../../src/engine/commit/prepared-document.js';
import { decodeWalPayload } from '../../../src/engine/commit/wal-replay.js';
import { encodeWalRecord, RECORD_FRAME } from '../../../src/engine/commit/write-ahead-log.js';
import { WAL_VERSION } from '../../../src/engine/index-files.js';
import { YarrowError } from '../../../src/engine/errors.js';
import { validateDocument } from '../../../src/engine/schema/document.js';
import { JsonValueSplitter } from '../../../src/engine/schema/json-value-stream.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';
import type { Mapping } from '../../../src/engine/schema/mapping.js';
import { SegmentBuffer } from '../../../src/engine/segment/segment-buffer.js';
import { mulberry32 } from '../../../bench/queries.js';
import { corpusLines } from '../../helpers/corpus-sample.js';

const english = { type: 'text', search: { lexical: { analyze: 'english' } } };
const keyword = { type: 'text', search: false, filter: true, facet: true };
const debian = parseMapping({
  fields: {
    name: english, summary: english, description: english, section: keyword, priority: keyword,
    installed_size: { type: 'int', filter: true, sort: true }, size: { type: 'int', filter: true, sort: true },
    tags: { type: 'text[]', search: false, filter: true, facet: true },
  },
}, 'debian');
const npm = parseMapping({ fields: { name: english, summary: english, downloads_a_month: { type: 'long', sort: true, filter: true } } }, 'npm');
const mixed = parseMapping({
  fields: {
    title: english, body: { type: 'text' }, tags: { type: 'text[]', search: false, filter: true },
    year: { type: 'int', filter: true, sort: true }, score: { type: 'double' }, when: { type: 'date' }, ok: { type: 'bool' },
  },
}, 'mixed');

/** Lines the byte reader takes and lines it leaves to the general path, all valid for `mixed`. */
const mixedLines = [
  '{"_id":"a1","title":"River stone garden","body":"quiet lantern","tags":["x","y"],"year":1999,"score":1.5,"when":"2020-01-02","ok":true}',
  '{"_id":"a2","title":"Tab\\tand \\"quotes\\" and \\\\ slash","year":-3,"score":1e3}',
  '{"_id":"a3","title":"escaped \\/ and \\u00e9","body":null,"tags":[]}',
  '{"_id":"a4","title":"höhe 東京 ŝtono","body":"non-ASCII text"}',
  '  {"_id":"a5" , "title" : "spaces around"  }  ',
  '{"_id":"a6","title":"crlf line"}\r',
  '{"title":"no id at all"}',
  '{"_id":7,"title":"numeric id"}',
  '{"_id":"a1","title":"replaces a1 in the same body","extra":{"nested":[1,2,{"k":"v"}]},"ünmapped":"ü"}',
  '{"_id":"a8","title":"","body":"empty title","year":0,"ok":false}',
  '',
  '   ',
  '{"_id":"a9","tags":"one tag","score":-0.0,"when":"2023-11-14"}',
];

/** `body` cut into chunks of random sizes (splitting lines and UTF-8 sequences anywhere). */
function chunked(body: Uint8Array, seed: number): Uint8Array[] {
  const rnd = mulberry32(seed);
  const out: Uint8Array[] = [];
  for (let at = 0; at < body.length;) {
    const n = 1 + Math.floor(rnd() * (rnd() < 0.3 ? 40 : 70_000));
    out.push(Uint8Array.from(body.subarray(at, at + n)));
    at += n;
  }
  return out;
}

/** What BodyBatch makes of a body: the refusal, or the decoded record and the flushed segment. */
async function viaBatch(mapping: Mapping, body: Uint8Array, seed: number): Promise<InvalidBatch | { ops: unknown[]; files: [string, Uint8Array][]; ids: string[] }> {
  const batch = new BodyBatch(mapping);
  for (const chunk of chunked(body, seed)) {
    const invalid = batch.push(chunk);
    if (invalid !== null) return invalid;
  }
  const invalid = batch.end();
  if (invalid !== null) return invalid;
  const { record, ids } = batch.seal();
  const ops = decodeWalPayload(record.subarray(RECORD_FRAME), WAL_VERSION, 'test', 0).ops;
  const buffer = new SegmentBuffer(mapping, getAnalyzer);
  batch.applyTo(buffer, new IdFilterBuilder());
  const { files } = await buffer.flush('_0');
  return { ops, files: [...files].sort(([a], [b]) => (a < b ? -1 : 1)), ids };
}

/** The general form, written out here: split, parse, validate, prepare, one record. */
async function viaObjects(mapping: Mapping, body: Uint8Array): Promise<InvalidBatch | { ops: unknown[]; files: [string, Uint8Array][]; ids: string[] }> {
  const splitter = new JsonValueSplitter();
  const prepared = [];
  try {
    for (const { value, location } of [...splitter.push(Buffer.from(body)), ...splitter.end()]) prepared.push(prepare(validateDocument(mapping, value, location)));
  } catch (e) {
    if (!(e instanceof YarrowError)) throw e;
    return { message: e.message, code: e.code, details: e.details };
  }
  const record = encodeWalRecord(prepared.map((d) => ({ uJson: d.walJson })));
  const ops = decodeWalPayload(record.subarray(RECORD_FRAME), WAL_VERSION, 'test', 0).ops;
  const buffer = new SegmentBuffer(mapping, getAnalyzer);
  for (const d of prepared) buffer.add(d.doc, d.id, d.storedJson);
  const { files } = await buffer.flush('_0');
  return { ops, files: [...files].sort(([a], [b]) => (a < b ? -1 : 1)), ids: prepared.map((d) => d.id) };
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('BodyBatch: an _index body kept as bytes', () => {
  for (const [name, mapping, file] of [['Debian', debian, 'debian-packages.jsonl.gz'], ['npm', npm, 'npm-packages.jsonl.gz']] as const) {
    it(`gives the general form's log record and segment files on ${name} package metadata, at any chunking`, async () => {
      const body = corpusLines(file, 3000);
      const expected = await viaObjects(mapping, body);
      assert.ok(!('message' in expected) && expected.ids.length === 3000);
      for (const seed of [1, 2, 3]) assert.deepStrictEqual(await viaBatch(mapping, body, seed), expected);
    });
  }

  it('gives the same on lines of every kind (escapes, non-ASCII, numbers, dates, nulls, blank and CRLF lines, repeated ids)', async () => {
    // Without the line that has no `_id`: its random id differs from run to run.
    const body = utf8(`${mixedLines.filter((l) => !l.includes('no id')).join('\n')}\n`);
    const expected = await viaObjects(mixed, body);
    assert.ok(!('message' in expected), JSON.stringify(expected));
    for (const seed of [4, 5, 6, 7]) assert.deepStrictEqual(await viaBatch(mixed, body, seed), expected);
  });

  it('gives a line without _id a random id, as the general form does', async () => {
    const got = await viaBatch(mixed, utf8(mixedLines.join('\n')), 8);
    assert.ok(!('message' in got), JSON.stringify(got));
    const generated = got.ids.filter((id) => /^[0-9a-f-]{36}$/.test(id));
    assert.equal(generated.length, 1);
    assert.equal(got.ids.length, mixedLines.filter((l) => l.trim() !== '').length);
  });

  it('takes what is not JSON Lines as the general form does (an array, values spread over lines or sharing one, a byte order mark)', async () => {
    for (const text of [
      '[{"_id":"a","title":"one"},\n{"_id":"b","title":"two"}]',
      '{"_id":"a",\n "title":"spread"}\n{"_id":"b","title":"two"}',
      '{"_id":"a","title":"one"}{"_id":"b","title":"two"} {"_id":"c"}',
      '\ufeff{"_id":"a","title":"bom"}\n{"_id":"b","title":"two"}\n',
    ]) {
      const body = utf8(text);
      const expected = await viaObjects(mixed, body);
      assert.ok(!('message' in expected));
      for (const seed of [9, 10]) assert.deepStrictEqual(await viaBatch(mixed, body, seed), expected, text);
    }
  });

  it('refuses an invalid body with the general form\'s error (line, field, expected and actual type), wherever the bad line is', async () => {
    const good = Array.from({ length: 500 }, (_, i) => `{"_id":"g${i}","title":"fine line ${i}","year":${1900 + i}}`);
    for (const bad of [
      '{"_id":"x","year":"1999"}',
      '{"_id":"x","title":"fine","year":1.5}',
      '{"_id":"x","title":"unterminated}',
      '{"_id":"x","title":"two"} {"_id":"y","year":"no"}',
      '"just a string"',
      '[1,2]',
      '{"_id":{"not":"a string"}}',
      '{"_id":"x","ok":"yes"}',
    ]) {
      for (const at of [0, 250, 500]) {
        const lines = [...good];
        lines.splice(at, 0, bad);
        const body = utf8(`${lines.join('\n')}\n`);
        const expected = await viaObjects(mixed, body);
        assert.ok('message' in expected, bad);
        assert.deepStrictEqual(await viaBatch(mixed, body, at + 11), expected, bad);
      }
    }
  });

  it('refuses invalid UTF-8 as the general form does', async () => {
    const head = utf8('{"_id":"a","title":"fine"}\n{"_id":"b","title":"bad ');
    const body = new Uint8Array([...head, 0xff, 0xfe, ...utf8('"}\n')]);
    const expected = await viaObjects(mixed, body);
    assert.ok('message' in expected);
    assert.deepStrictEqual(await viaBatch(mixed, body, 12), expected);
  });
});
