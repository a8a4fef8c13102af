import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { sortedTermIds } from '../../../src/engine/segment/term-order.js';

/** Code units around every boundary the sort key has: U+0000, the 7-bit cap, non-ASCII, surrogates. */
const unit = fc.constantFrom(0, 1, 0x30, 0x61, 0x7a, 0x7d, 0x7e, 0x7f, 0x80, 0xe9, 0x3042, 0xd835, 0xdc00, 0xffff);
const term = fc.array(fc.oneof(unit, fc.integer({ min: 0x61, max: 0x66 })), { maxLength: 7 }).map((units) => String.fromCharCode(...units));

describe('sortedTermIds', () => {
  it('orders ids as the default sort orders their terms', () => {
    fc.assert(
      fc.property(fc.uniqueArray(term, { maxLength: 300 }), (terms) => {
        const ids = sortedTermIds(terms);
        assert.deepEqual(Array.from(ids, (id) => terms[id]), [...terms].sort());
        assert.deepEqual([...ids].sort((a, b) => a - b), terms.map((_, i) => i));
      }),
      { numRuns: 500 },
    );
  });

  it('orders terms that repeat or share long prefixes, equal ones next to each other', () => {
    const long = fc.array(fc.constantFrom('a', 'b', 'é', '\u007e', '\u007f'), { maxLength: 3 }).map((tail) => `prefix-shared-by-all/${tail.join('')}`);
    fc.assert(
      fc.property(fc.array(fc.oneof(term, long), { maxLength: 200 }), (terms) => {
        const ids = sortedTermIds(terms);
        assert.deepEqual(Array.from(ids, (id) => terms[id]), [...terms].sort());
        assert.deepEqual([...ids].sort((a, b) => a - b), terms.map((_, i) => i));
      }),
      { numRuns: 300 },
    );
    const deep = ['x'.repeat(2_000), 'x'.repeat(2_000), `${'x'.repeat(1_999)}w`, `${'x'.repeat(2_000)}y`];
    assert.deepEqual(Array.from(sortedTermIds(deep), (id) => deep[id]), [...deep].sort());
  });

  it('orders long runs of terms that share ASCII prefixes of every length, repeats included (the keyed passes)', () => {
    const ascii = fc.array(fc.constantFrom('a', 'b', 'c', '-', '0', 'z', '~'), { maxLength: 9 }).map((tail) => tail.join(''));
    const stem = fc.constantFrom('', 'lib', 'libx', 'python3-', 'python3-django-', 'x'.repeat(40));
    fc.assert(
      fc.property(fc.array(fc.tuple(stem, ascii).map(([a, b]) => a + b), { minLength: 50, maxLength: 600 }), (terms) => {
        const ids = sortedTermIds(terms);
        assert.deepEqual(Array.from(ids, (id) => terms[id]), [...terms].sort());
        assert.deepEqual([...ids].sort((a, b) => a - b), terms.map((_, i) => i));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps terms that are in order already, repeats included', () => {
    const terms = ['', 'a', 'a', 'ab', 'b', 'b\u0000', 'é', '日本'];
    assert.deepEqual(Array.from(sortedTermIds(terms)), terms.map((_, i) => i));
    const almost = [...terms.slice(0, 7), 'a'];
    assert.deepEqual(Array.from(sortedTermIds(almost), (id) => almost[id]), [...almost].sort());
  });

  it('orders real words, prefixes of one another and terms past ASCII', () => {
    const terms = ['run', 'runner', 'ru', 'r', 'école', 'ecole', 'über', 'uber', '日本', '日本語', 'a\u0000', 'a', '', 'zz', 'z~', 'z\u007f', 'z\u0080'];
    assert.deepEqual(Array.from(sortedTermIds(terms), (id) => terms[id]), [...terms].sort());
  });
});
