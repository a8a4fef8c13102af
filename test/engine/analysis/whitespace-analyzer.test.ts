import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createWhitespaceAnalyzer } from '../../../src/engine/analysis/whitespace-analyzer.js';
import { run } from './helpers.js';

const whitespace = createWhitespaceAnalyzer();

describe('createWhitespaceAnalyzer', () => {
  it('splits on Unicode whitespace only and lowercases', () => {
    const result = run(whitespace, ' C++\tE-Mail\u00a0Foo.Bar\u3000ΟΔΌΣ\n😀X ');
    assert.deepEqual(result.terms, ['c++', 'e-mail', 'foo.bar', 'οδός', '😀x']);
    assert.deepEqual(result.positions, [0, 1, 2, 3, 4]);
    assert.equal(result.next, 5);
  });

  it('lowercases astral letters', () => {
    assert.deepEqual(run(whitespace, '𐐀').terms, ['𐐨']);
  });

  it('returns startPosition for blank text', () => {
    assert.equal(run(whitespace, ' \n\t ', 4).next, 4);
  });
});
