import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashSpan } from '../../../src/engine/analysis/span-hash.js';
import { RawTokenTable } from '../../../src/engine/segment/raw-token-table.js';

/** Looks up every whitespace-separated word of `text`, giving a new span the next id. */
function idsOf(table: RawTokenTable, text: string, lowerAscii: boolean, resolved: string[]): number[] {
  const ids: number[] = [];
  for (const m of text.matchAll(/\S+/g)) {
    const start = m.index;
    const end = start + m[0].length;
    ids.push(table.lookup(text, start, end, lowerAscii, hashSpan(text, start, end), (s, e) => resolved.push(text.slice(s, e)) - 1));
  }
  return ids;
}

describe('RawTokenTable', () => {
  it('keeps every id through many rehashes, and resolves each span once', () => {
    const table = new RawTokenTable();
    const words = Array.from({ length: 50_000 }, (_, i) => `w${i.toString(36)}x`);
    const resolved: string[] = [];
    const first = idsOf(table, words.join(' '), false, resolved);
    assert.deepEqual(first, words.map((_, i) => i));
    // Looked up again after the table grew from 2,048 slots: same ids, nothing resolved anew.
    const again = idsOf(table, [...words].reverse().join(' '), false, resolved);
    assert.deepEqual(again, words.map((_, i) => words.length - 1 - i));
    assert.equal(resolved.length, words.length);
    assert.ok(table.bytes > 50_000 * 16, `${table.bytes} bytes`);
  });

  it('tells apart non-ASCII spans, surrogate pairs and prefixes of one another', () => {
    const table = new RawTokenTable();
    const resolved: string[] = [];
    const text = 'école ecole écol 𝒳y 𝒳z 𝒳 日本 日本語 straße strasse';
    const ids = idsOf(table, text, false, resolved);
    assert.deepEqual(ids, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.deepEqual(idsOf(table, text, false, resolved), ids);
    assert.deepEqual(resolved, text.split(' '));
  });

  it('reads A-Z as a-z only when asked, matching spans stored either way', () => {
    const table = new RawTokenTable();
    const resolved: string[] = [];
    assert.deepEqual(idsOf(table, 'Node node NODE', true, resolved), [0, 0, 0]);
    assert.deepEqual(resolved, ['Node']);
    // Without folding, capitals are other characters: a new entry, resolved once.
    assert.deepEqual(idsOf(table, 'NODE node', false, resolved), [1, 0]);
    assert.deepEqual(resolved, ['Node', 'NODE']);
  });
});

/** The lowercased ASCII bytes of `word` as the byte scan reads them (A-Z may stay capital: findBytes folds them). */
function bytesOf(word: string): Uint8Array {
  return Buffer.from(word, 'latin1');
}

describe('RawTokenTable key forms (short ASCII in the slot, long ASCII and non-ASCII in arenas)', () => {
  const words = ['a', 'ab', 'abc', 'abcd', 'abcde', 'abcdefg', 'abcdefgh', 'abcdefghi', 'abcdefgh1', "don't", "don't9", 'x'.repeat(255), 'x'.repeat(254), 'abcdefgz', 'zbcdefgh', '0', '00000000', '000000000'];

  it('tells every key apart by its units alone when all hashes collide', () => {
    const table = new RawTokenTable();
    // Every key under hash 0: one probe run, so nothing but the key decides.
    for (const [i, w] of words.entries()) {
      assert.equal(table.find(w, 0, w.length, false, 0), -2, w);
      table.add(w, 0, w.length, false, 0, i);
    }
    for (const [i, w] of words.entries()) {
      assert.equal(table.find(w, 0, w.length, false, 0), i, w);
      const b = bytesOf(w.toUpperCase());
      assert.equal(table.findBytes(b, 0, b.length, 0), i, `${w} as capital bytes`);
    }
    // Non-ASCII words of the same lengths are other keys, and find the entries they were given.
    const wide = ['é', 'abcdefgé', 'abcdéfgh', 'éxxxxxxxx', '日本語'];
    for (const [i, w] of wide.entries()) {
      assert.equal(table.find(w, 0, w.length, false, 0), -2, w);
      table.add(w, 0, w.length, false, 0, 100 + i);
    }
    for (const [i, w] of wide.entries()) assert.equal(table.find(w, 0, w.length, false, 0), 100 + i, w);
    for (const [i, w] of words.entries()) assert.equal(table.find(w, 0, w.length, false, 0), i, w);
    assert.equal(table.size, words.length + wide.length);
  });

  it('finds from bytes the spans recorded from strings, and from strings those first missed as bytes, through rehashes', () => {
    const table = new RawTokenTable();
    const all = Array.from({ length: 20_000 }, (_, i) => (i % 3 === 0 ? `w${i.toString(36)}` : i % 3 === 1 ? `long${i}word${i}` : `n'${i}`));
    for (const [i, w] of all.entries()) {
      const upper = w.toUpperCase();
      if (i % 2 === 0) {
        assert.equal(table.find(upper, 0, upper.length, true, hashSpan(w, 0, w.length)), -2);
      } else {
        const b = bytesOf(upper);
        assert.equal(table.findBytes(b, 0, b.length, hashSpan(w, 0, w.length)), -2);
      }
      // What the vocabulary records after a miss either way: the lowercased span.
      table.add(upper, 0, upper.length, true, hashSpan(w, 0, w.length), i);
    }
    for (const [i, w] of all.entries()) {
      const b = bytesOf(` ${w} `);
      assert.equal(table.findBytes(b, 1, b.length - 1, hashSpan(w, 0, w.length)), i, w);
      assert.equal(table.find(` ${w}`, 1, w.length + 1, true, hashSpan(w, 0, w.length)), i, w);
    }
    // A span one unit shorter or longer is not the key.
    const b = bytesOf('longXword');
    assert.equal(table.findBytes(b, 0, b.length, hashSpan('longxword', 0, 9)), -2);
  });

  it('keys a span recorded from its bytes (addBytes) as add keys its lowercased string, every length and case', () => {
    const fromBytes = new RawTokenTable(4);
    const fromString = new RawTokenTable(4);
    // Lengths 1 to 12 (the slot's two packed halves and the arena), capitals, digits and
    // apostrophes at every place of the key, each span inside a line of other bytes.
    const units = "aZ0'mQ9xb";
    let seed = 12345;
    const next = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const spans = Array.from({ length: 3_000 }, (_, i) => {
      let w = '';
      for (let k = 0, n = 1 + (i % 12); k < n; k++) w += units[next(units.length)];
      // Repeats, so some spans are met again after their first.
      return i % 5 === 4 ? w.slice(0, 1).replace("'", 'a') : w.replace(/^'+/, 'a');
    });
    const distinct = [...new Set(spans.map((w) => w.toLowerCase()))];
    assert.ok(distinct.length > 1_000, `${distinct.length} distinct spans`);
    const line = bytesOf(` ${spans.join(' ')} `);
    let at = 1;
    const ids = new Map<string, number>();
    for (const w of spans) {
      const lower = w.toLowerCase();
      const hash = hashSpan(lower, 0, lower.length);
      if (!ids.has(lower)) {
        ids.set(lower, ids.size);
        assert.equal(fromBytes.findBytes(line, at, at + w.length, hash), -2, w);
        fromBytes.addBytes(line, at, at + w.length, hash, ids.get(lower)!);
        assert.equal(fromString.find(w, 0, w.length, true, hash), -2, w);
        fromString.add(w, 0, w.length, true, hash, ids.get(lower)!);
      }
      at += w.length + 1;
    }
    // Both tables answer every span, from a string or from bytes, with the same id.
    for (const [lower, id] of ids) {
      const hash = hashSpan(lower, 0, lower.length);
      const upper = lower.toUpperCase();
      const b = bytesOf(upper);
      for (const table of [fromBytes, fromString]) {
        assert.equal(table.find(lower, 0, lower.length, false, hash), id, lower);
        assert.equal(table.find(upper, 0, upper.length, true, hash), id, upper);
        assert.equal(table.findBytes(b, 0, b.length, hash), id, upper);
      }
    }
    assert.equal(fromBytes.size, ids.size);
    assert.equal(fromBytes.keyChars, fromString.keyChars);
  });
});
