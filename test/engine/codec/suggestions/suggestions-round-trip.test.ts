import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeSuggestions } from '../../../../src/engine/codec/suggestions/suggestions-reader.js';
import { compareCodePoints, SuggestionsWriter, sortKeys } from '../../../../src/engine/codec/suggestions/suggestions-writer.js';
import { assertEveryFlipIsCorrupt, assertTruncationIsCorrupt } from '../corruption.js';

/** A field's candidates: key -> [display, ascending docs]. */
type Field = Map<string, [string, number[]]>;

// Letters above U+FFFF and in U+E000..U+FFFF sort differently in UTF-16 and in code points.
const word = fc.oneof(fc.stringMatching(/^[a-zé]{1,6}$/), fc.constantFrom('ｆ', 'ｆa', '😀', 'z😀', 'z\uffee', 'a\u{1f600}b'));
const candidate = fc.tuple(fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')), fc.boolean(), fc.uniqueArray(fc.nat({ max: 300 }), { minLength: 1, maxLength: 20 }));
const fieldArb = fc.array(candidate, { maxLength: 60 }).map((cs) => {
  const f: Field = new Map();
  for (const [text, upper, docs] of cs) f.set(text, [upper ? text.toUpperCase() : text, [...docs].sort((a, b) => a - b)]);
  return f;
});

function encode(fields: ReadonlyMap<string, Field>): Uint8Array {
  const w = new SuggestionsWriter();
  for (const [name, f] of fields) {
    w.startField(name);
    for (const key of sortKeys([...f.keys()])) w.add(key, f.get(key)![0], f.get(key)![1]);
  }
  return w.finish();
}

describe('SuggestionsWriter / decodeSuggestions', () => {
  it('round-trips keys, display forms, counts and docs, and finds prefixes by binary search', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('title', 'tags', 'a.b'), fieldArb), fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('z', 'ｆ', 'z😀', 'a\u{1f600}')), (raw, prefix) => {
        const fields = new Map(Object.entries(raw).map(([k, v]) => [k, v]));
        const decoded = decodeSuggestions(encode(fields), 'seg-000001.sgt');
        for (const [name, f] of fields) {
          const d = decoded.get(name);
          if (f.size === 0) {
            assert.equal(d, undefined, 'an empty field is left out');
            continue;
          }
          assert.ok(d !== undefined);
          const keys = [...f.keys()].sort(compareCodePoints);
          assert.deepEqual(Array.from({ length: d.size }, (_, i) => d.key(i)), keys);
          assert.deepEqual(sortKeys([...f.keys()]), keys);
          keys.forEach((key, i) => {
            assert.equal(d.display(i), f.get(key)![0]);
            assert.equal(d.counts[i], f.get(key)![1].length);
            assert.deepEqual([...d.docs(i)], f.get(key)![1]);
            assert.equal(d.indexOf(key), i);
          });
          const [lo, hi] = d.prefixRange(prefix);
          assert.deepEqual(keys.slice(lo, hi), keys.filter((k) => k.startsWith(prefix)));
          assert.equal(d.indexOf(`${prefix}\u0001missing`), -1);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('refuses candidates out of order or without docs', () => {
    const w = new SuggestionsWriter();
    w.startField('title');
    w.add('b', 'b', [1]);
    assert.throws(() => { w.add('a', 'a', [2]); }, /out of order/);
    assert.throws(() => { w.add('c', 'c', []); }, /no docs/);
  });

  it('reports any flipped bit or truncation as corrupt_index naming the file', () => {
    const bytes = encode(new Map([['title', new Map([['harry', ['Harry', [0, 3]]], ['harry potter', ['Harry Potter', [3]]]])]]));
    assertEveryFlipIsCorrupt(bytes, (b) => decodeSuggestions(b, 'seg-000002.sgt'), 'seg-000002.sgt');
    assertTruncationIsCorrupt(bytes, (b) => decodeSuggestions(b, 'seg-000002.sgt'), 'seg-000002.sgt');
  });
});
