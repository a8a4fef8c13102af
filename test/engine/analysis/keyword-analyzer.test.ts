import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createKeywordAnalyzer } from '../../../src/engine/analysis/keyword-analyzer.js';
import { run } from './helpers.js';

const keyword = createKeywordAnalyzer();

describe('createKeywordAnalyzer', () => {
  it('emits the whole value unchanged as one term', () => {
    assert.deepEqual(run(keyword, '  New York, NY  '), { terms: ['  New York, NY  '], positions: [0], next: 1 });
  });

  it('uses startPosition', () => {
    assert.deepEqual(run(keyword, 'ID-42', 9), { terms: ['ID-42'], positions: [9], next: 10 });
  });

  it('emits nothing for an empty value', () => {
    assert.deepEqual(run(keyword, '', 2), { terms: [], positions: [], next: 2 });
  });
});
