import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { JsonValueSplitter } from '../../../src/engine/schema/json-value-stream.js';
import type { ParsedValue } from '../../../src/engine/schema/json-value-stream.js';
import { YarrowError } from '../../../src/engine/errors.js';

function split(text: string | Buffer, cuts: readonly number[] = []): ParsedValue[] {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const s = new JsonValueSplitter();
  const out: ParsedValue[] = [];
  let at = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    if (c <= at || c >= bytes.length) continue;
    out.push(...s.push(bytes.subarray(at, c)));
    at = c;
  }
  out.push(...s.push(bytes.subarray(at)));
  out.push(...s.end());
  return out;
}

function failure(text: string): YarrowError {
  try {
    split(text);
  } catch (e) {
    assert.ok(e instanceof YarrowError);
    return e;
  }
  assert.fail('expected an error');
}

describe('JsonValueSplitter', () => {
  it('splits JSON Lines and numbers documents by line', () => {
    const out = split('{"a":1}\n\n{"a":2}\r\n');
    assert.deepEqual(out.map((v) => v.value), [{ a: 1 }, { a: 2 }]);
    assert.deepEqual(out.map((v) => v.location), [{ ordinal: 1, offset: 0, line: 1 }, { ordinal: 2, offset: 9, line: 3 }]);
  });

  it('splits concatenated values and locates them by ordinal and offset', () => {
    const out = split('{"a":"}{"}{"b":[1,{"c":2}]} {"d":"\\"}"}');
    assert.deepEqual(out.map((v) => v.value), [{ a: '}{' }, { b: [1, { c: 2 }] }, { d: '"}' }]);
    assert.deepEqual(out[1].location, { ordinal: 2, offset: 10 });
  });

  it('takes the elements of a top-level array as documents, and scalars as values', () => {
    assert.deepEqual(split('\ufeff[ {"a":1} , {"a":2} ]\n{"a":3}').map((v) => v.value), [{ a: 1 }, { a: 2 }, { a: 3 }]);
    assert.deepEqual(split('1 "x" true null').map((v) => v.value), [1, 'x', true, null]);
  });

  it('names line, ordinal and offset of invalid JSON', () => {
    const e = failure('{"a":1}\n{"a":}\n');
    assert.deepEqual([e.details.line, e.details.ordinal, e.details.offset], [2, 2, 8]);
    assert.match(e.message, /^line 2, document 2: invalid JSON/);
    const cat = failure('{"a":1}{"a":tru}');
    assert.match(cat.message, /^document 2, offset 7: /);
  });

  it('rejects truncated documents and arrays', () => {
    assert.match(failure('{"a":1}\n{"a":').message, /truncated/);
    assert.match(failure('[{"a":1}').message, /missing "\]"/);
  });

  it('finds the same values wherever the chunks are cut', () => {
    const doc = fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.array(fc.boolean(), { maxLength: 3 })), { maxKeys: 4 });
    const sep = fc.constantFrom('', '\n', ' ', '\r\n', '\t\n ');
    fc.assert(
      fc.property(fc.array(fc.tuple(doc, sep), { minLength: 1, maxLength: 8 }), fc.array(fc.nat(400), { maxLength: 10 }), (docs, cuts) => {
        const text = docs.map(([d, s]) => JSON.stringify(d) + s).join('');
        const out = split(text, cuts);
        assert.deepEqual(out.map((v) => JSON.stringify(v.value)), docs.map(([d]) => JSON.stringify(d)));
        const bytes = Buffer.from(text);
        for (const v of out) assert.equal(bytes[v.location.offset], 0x7b, 'offset points at the document');
        assert.deepEqual(out.map((v) => v.location.ordinal), out.map((_, i) => i + 1));
      }),
    );
  });
});
