import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { stemEnglish } from '../../../src/engine/analysis/english-stemmer.js';

describe('stemEnglish', () => {
  it('returns known Porter2 stems', () => {
    const expected: Record<string, string> = {
      running: 'run',
      generously: 'generous',
      consigned: 'consign',
      knightly: 'knight',
      caresses: 'caress',
      ponies: 'poni',
      happily: 'happili',
      relational: 'relat',
      searching: 'search',
      indexes: 'index',
    };
    for (const [word, stem] of Object.entries(expected)) assert.equal(stemEnglish(word), stem, word);
  });

  it('returns the same stem on repeated calls', () => {
    assert.equal(stemEnglish('generations'), stemEnglish('generations'));
    assert.equal(stemEnglish('generations'), 'generat');
  });

  it('leaves short and non-Latin words alone', () => {
    assert.equal(stemEnglish('is'), 'is');
    assert.equal(stemEnglish('москвы'), 'москвы');
  });
});
