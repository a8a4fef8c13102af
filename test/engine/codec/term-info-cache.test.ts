import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TermInfo } from '../../../src/engine/codec/postings/postings-format.js';
import { TermInfoCache } from '../../../src/engine/codec/term-dictionary/term-info-cache.js';

function info(docFreq: number): TermInfo {
  return { docFreq, totalTermFreq: docFreq, postingsOffset: 0, singletonDoc: -1, positionsOffset: 0, maxFreq: 1, minNorm: 0 };
}

describe('TermInfoCache', () => {
  it('answers repeated lookups, hits and misses, without asking the dictionary again, per field', () => {
    const dictionary = new Map([['title\u0000a', info(3)], ['body\u0000a', info(7)]]);
    const asked: string[] = [];
    const cache = new TermInfoCache((field, term) => {
      asked.push(`${field}:${term}`);
      return dictionary.get(`${field}\u0000${term}`);
    });
    for (let round = 0; round < 3; round++) {
      assert.equal(cache.get('title', 'a')?.docFreq, 3);
      assert.equal(cache.get('body', 'a')?.docFreq, 7);
      assert.equal(cache.get('title', 'b'), undefined);
    }
    assert.deepEqual(asked, ['title:a', 'body:a', 'title:b']);
  });

  it('stays within its bound: a full field starts over and asks again', () => {
    let asked = 0;
    const cache = new TermInfoCache(() => {
      asked++;
      return info(1);
    }, 2);
    cache.get('f', 'a');
    cache.get('f', 'b');
    cache.get('f', 'c'); // full: starts over with only c
    cache.get('f', 'c');
    cache.get('f', 'a');
    assert.equal(asked, 4);
  });
});
