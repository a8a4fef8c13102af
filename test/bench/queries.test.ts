/**
 * The bench's query set builder: its term pools and the queries it derives from them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CorpusDoc } from '../../bench/corpus.js';
import { buildQuerySet, termPools } from '../../bench/queries.js';

/**
 * A corpus whose every word has a document frequency inside the rare range, so a generous frequent
 * share puts the same words in both pools unless the pools are kept apart; several documents hold
 * one word only.
 */
function overlappingCorpus(): CorpusDoc[] {
  const docs: CorpusDoc[] = [];
  for (let i = 0; i < 30; i++) docs.push({ _id: `c${i}`, summary: `common${i % 5}` });
  for (const [k, word] of ['zeta', 'eta', 'theta', 'iota', 'kappa'].entries()) {
    docs.push({ _id: `r${k}a`, summary: word }, { _id: `r${k}b`, summary: word });
  }
  for (let i = 0; i < 10; i++) docs.push({ _id: `p${i}`, summary: 'common3 zeta' });
  return docs;
}

describe('bench query set', () => {
  it('keeps the rare pool apart from the frequent pool', () => {
    const pools = termPools(overlappingCorpus(), ['summary'], { frequentShare: 0.3 });
    assert.deepEqual(pools.frequent, ['common3', 'zeta', 'common0']);
    assert.equal(pools.rare.filter((t) => pools.frequent.includes(t)).length, 0);
    assert.deepEqual(pools.rare, ['common1', 'common2', 'common4', 'eta', 'iota', 'kappa', 'theta']);
  });

  it('finishes on a corpus whose documents hold a single frequent word, with distinct terms per query', { timeout: 10_000 }, () => {
    const queries = buildQuerySet(overlappingCorpus(), ['summary'], { frequentShare: 0.3, perClass: 5 });
    for (const q of queries) assert.equal(new Set(q.terms).size, q.terms.length, q.terms.join(' '));
    const and2 = queries.filter((q) => q.class === 'and-2');
    // The only documents with two words hold `common3 zeta`.
    assert.ok(and2.length > 0);
    for (const q of and2) assert.deepEqual([...q.terms].sort(), ['common3', 'zeta']);
  });
});
