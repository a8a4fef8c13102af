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
