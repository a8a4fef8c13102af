import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { porter2 } from '../../../src/engine/analysis/porter2.js';
import { newSnowballStemmer } from '../../../src/engine/analysis/snowball.js';
import { tokenizeStandard } from '../../../src/engine/analysis/standard-analyzer.js';
import { corpusBytes } from '../../helpers/corpus-sample.js';

/** The reference: Snowball's english.sbl as the snowball-stemmers package runs it. */
const snowball = newSnowballStemmer('english');

/** Letters and endings the algorithm's steps test for, so random words reach every rule. */
const pieces = [
  'a', 'e', 'i', 'o', 'u', 'y', 'b', 'c', 'd', 'g', 'l', 'n', 'r', 's', 't', 'w', 'x', "'", 'é',
  'ing', 'ed', 'eed', 'ly', 'ies', 'sses', 'ational', 'tional', 'ization', 'iveness', 'fulness',
  'ousness', 'biliti', 'lessli', 'ogi', 'li', 'icate', 'ative', 'alize', 'ical', 'ness', 'ement',
  'ment', 'ion', 'able', 'ible', 'ism', 'ous', 'ant', 'ent', 'er', 'al', 'ic', 'ate', 'iz', 'at', 'bl',
  'gener', 'commun', 'arsen', "'s", "'s'", 'bb', 'tt', 'ss', 'us',
];

describe('porter2', () => {
  it('stems like Snowball english on words built from the suffixes it tests', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 6 }), (parts) => {
        const word = parts.join('');
        assert.equal(porter2(word), snowball.stem(word), word);
      }),
      { numRuns: 8_000 },
    );
  });

  it('stems like Snowball english on arbitrary strings of lowercase letters', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z']{1,14}$/), (word) => {
        assert.equal(porter2(word), snowball.stem(word), word);
      }),
      { numRuns: 8_000 },
    );
  });

  it('stems like Snowball english on every word of the npm and Debian package corpora', () => {
    for (const file of ['npm-packages.jsonl.gz', 'debian-packages.jsonl.gz']) {
      const words = new Set<string>();
      for (const line of corpusBytes(file).toString('utf8').split('\n', 30_000)) {
        if (line.length === 0) continue;
        for (const value of Object.values(JSON.parse(line) as Record<string, unknown>)) {
          if (typeof value === 'string') tokenizeStandard(value, (token) => void words.add(token));
        }
      }
      assert.ok(words.size > 20_000, `${file}: ${words.size} words`);
      for (const word of words) assert.equal(porter2(word), snowball.stem(word), word);
    }
  });

  it('handles the exceptional forms, y as a consonant and the R1 prefixes', () => {
    const expected: Record<string, string> = {
      skies: 'sky', dying: 'die', news: 'news', idly: 'idl', inning: 'inning', innings: 'inning',
      outing: 'outing', succeeded: 'succeed', yelling: 'yell', saying: 'say', cry: 'cri', by: 'by',
      generously: 'generous', communism: 'communism', arsenal: 'arsenal', ties: 'tie', cries: 'cri',
      gaps: 'gap', gas: 'gas', hopping: 'hop', hoping: 'hope', "'yesterday's": 'yesterday', luxuriating: 'luxuri',
    };
    for (const [word, stem] of Object.entries(expected)) {
      assert.equal(porter2(word), stem, word);
      assert.equal(snowball.stem(word), stem, `reference: ${word}`);
    }
  });
});
