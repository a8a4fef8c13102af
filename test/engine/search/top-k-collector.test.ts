/**
 * TopKCollector keeps the best k hits and lists them best first (score descending, then doc
 * ascending), whether k is small (its insertion sort) or large (the built-in sort).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TopKCollector } from '../../../src/engine/search/top-k-collector.js';
import { mulberry32 } from '../../../bench/queries.js';

describe('TopKCollector', () => {
  it('lists the best k of random hits with many ties best first, for small and large k', () => {
    const random = mulberry32(99);
    for (const k of [1, 3, 10, 64, 65, 200]) {
      for (let round = 0; round < 20; round++) {
        const collector = new TopKCollector(k);
        const offered: { doc: number; score: number }[] = [];
        for (let doc = 0; doc < 500; doc++) {
          // Scores from a few values: most hits tie with others.
          const score = Math.floor(random() * 12) / 4;
          offered.push({ doc, score });
          collector.collect(doc, score);
        }
        const expected = offered.sort((a, b) => b.score - a.score || a.doc - b.doc).slice(0, k);
        assert.deepEqual(collector.results(), expected, `k ${k}`);
      }
    }
  });
});
