import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEnglishAnalyzer, englishStopWords } from '../../../src/engine/analysis/english-analyzer.js';
import { run } from './helpers.js';

const english = createEnglishAnalyzer();

describe('createEnglishAnalyzer', () => {
  it('is named english', () => {
    assert.equal(english.name, 'english');
  });

  it('stems words with Porter2', () => {
    assert.deepEqual(run(english, 'Running generously consigned knightly').terms, ['run', 'generous', 'consign', 'knight']);
  });

  it('removes stop words and leaves their positions as gaps', () => {
    const result = run(english, 'The quick fox is in the garden');
    assert.deepEqual(result.terms, ['quick', 'fox', 'garden']);
    assert.deepEqual(result.positions, [1, 2, 6]);
    assert.equal(result.next, 7);
  });

  it('returns startPosition when every word is a stop word', () => {
    assert.deepEqual(run(english, 'to be or not to be', 5), { terms: [], positions: [], next: 5 });
  });

  it('returns the position after the last kept term when stop words trail', () => {
    assert.deepEqual(run(english, 'search is the', 10), { terms: ['search'], positions: [10], next: 11 });
  });

  it('removes possessives with either apostrophe', () => {
    assert.deepEqual(run(english, "The ship's cargo, Mary’s LAMB's wool").terms, ['ship', 'cargo', 'mari', 'lamb', 'wool']);
  });

  it('keeps contractions and non-Latin words intact', () => {
    assert.deepEqual(run(english, "don't Москва 北京").terms, ["don't", 'москва', '北京']);
  });

  it('stops on exactly the 33 words of Lucene\'s classic set', () => {
    assert.equal(englishStopWords.size, 33);
    const text = [...englishStopWords].join(' ');
    assert.deepEqual(run(english, `${text} thereby`).terms, ['therebi']);
  });
});
