/**
 * The flat conjunction of terms (term-conjunction.ts) must find exactly what the general
 * conjunction through the clause scorers finds: the same docs, scores and order. Both run here on
 * the same real index (several segments, deleted docs, words from short to long fields, postings
 * of one block and of many) for random "and" queries of the shapes the query parser builds: a
 * cross_fields "and" (each word a dis_max over fields, with and without tie breaker and boosts) and
 * an "and" match on one field (each word a term).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Index } from '../../../src/engine/search-index.js';
import type { Snapshot } from '../../../src/engine/segment/snapshot.js';
import { scoreClauseConjunction } from '../../../src/engine/search/bulk-scorer.js';
import { ConjunctionScorer } from '../../../src/engine/search/conjunction-scorer.js';
import type { Query } from '../../../src/engine/search/query.js';
import { buildScorer } from '../../../src/engine/search/scorer-builder.js';
import { scoreTermConjunction } from '../../../src/engine/search/term-conjunction.js';
import { TopKCollector } from '../../../src/engine/search/top-k-collector.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';
import { mulberry32 } from '../../../bench/queries.js';
import { snapshotScoring } from '../../helpers/snapshot-scoring.js';

const FIELDS = ['name', 'summary', 'description'] as const;
const mapping = { fields: { name: { type: 'text' }, summary: { type: 'text' }, description: { type: 'text' } } };
/** Zipf-like draws over 60 words: w0 in most descriptions, w59 in a handful of docs. */
const WORDS = Array.from({ length: 60 }, (_, i) => `w${i}`);

const random = mulberry32(1717);
const words = (n: number): string => Array.from({ length: n }, () => WORDS[Math.floor(WORDS.length * random() ** 2)]).join(' ');

let index: Index;
let snapshot: Snapshot;

before(async () => {
  index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
  // Segments of different sizes: short fields whose postings are one block, long ones of many.
  for (const size of [3000, 1200, 400]) {
    const base = index.stats().docs;
    const docs = Array.from({ length: size }, (_, i) => ({
      _id: `d${base + i}`,
      name: words(1 + Math.floor(random() * 3)),
      summary: words(3 + Math.floor(random() * 8)),
      description: words(20 + Math.floor(random() * 80)),
    }));
    await index.upsert(docs);
    await index.refresh();
  }
  await index.delete(Array.from({ length: 300 }, (_, i) => `d${i * 13}`));
  await index.refresh();
  snapshot = index.reader().acquireSnapshot();
});

after(async () => {
  snapshot.release();
  await index.close();
});

const scoring = snapshotScoring(() => snapshot);

type Hits = { doc: number; score: number }[];

/** The top k of `query` over the snapshot, every segment's conjunction scored by `flat` or by the general path. */
function topK(query: Query, k: number, countUpTo: number, flat: boolean): { hits: Hits; flatSegments: number } {
  const collector = new TopKCollector(k);
  const ctx = { collector, countUpTo };
  let flatSegments = 0;
  for (const segment of snapshot.segments) {
    const scorer = buildScorer(query, segment, scoring);
    if (scorer === null) continue;
    assert.ok(scorer instanceof ConjunctionScorer);
    const live = segment.liveDocs.liveCount === segment.reader.maxDoc ? null : segment.liveDocs;
    if (flat) {
      assert.ok(scoreTermConjunction(scorer.ordered, scorer.clauses, live, segment.docBase, ctx), 'the flat conjunction takes this shape');
      flatSegments++;
    } else {
      scoreClauseConjunction(scorer.clauses, scorer.ordered, live, segment.docBase, ctx);
    }
  }
  return { hits: collector.results(), flatSegments };
}

function crossFields(terms: readonly string[], boosts: readonly number[], tieBreaker: number): Query {
  const must = terms.map((term) => ({
    kind: 'dis_max' as const,
    clauses: FIELDS.map((field, f) => ({ kind: 'terms' as const, field, terms: [term], operator: 'or' as const, boost: boosts[f] })),
    tieBreaker,
  }));
  return { kind: 'bool', must, should: [], mustNot: [], filter: [], minimumShouldMatch: 0, boost: 1 };
}

describe('flat term conjunction', () => {
  it('returns the general conjunction\'s top k on random cross_fields "and" queries', () => {
    let compared = 0;
    for (let q = 0; q < 150; q++) {
      const n = 2 + Math.floor(random() * 3);
      const terms = Array.from({ length: n }, () => WORDS[Math.floor(WORDS.length * random() ** 1.5)]);
      const boosts = q % 3 === 0 ? [3, 1.5, 1] : [1, 1, 1];
      const tieBreaker = q % 4 === 0 ? 0.3 : 0;
      const k = [1, 10, 50][q % 3];
      const countUpTo = [0, 10, Infinity][q % 3];
      const query = crossFields(terms, boosts, tieBreaker);
      const expected = topK(query, k, countUpTo, false);
      const actual = topK(query, k, countUpTo, true);
      assert.deepEqual(actual.hits, expected.hits, `query ${terms.join(' ')} (tie ${tieBreaker}, boosts ${boosts.join(',')}, k ${k})`);
      if (expected.hits.length > 0) compared++;
      assert.ok(actual.flatSegments > 0 || expected.hits.length === 0);
    }
    // Most queries match something, so the comparison is not over empty lists.
    assert.ok(compared > 100, `${compared} queries with hits`);
  });

  it('returns the general conjunction\'s top k on random one-field "and" matches', () => {
    for (let q = 0; q < 60; q++) {
      const n = 2 + Math.floor(random() * 3);
      const terms = Array.from({ length: n }, () => WORDS[Math.floor(WORDS.length * random() ** 1.5)]);
      const query: Query = { kind: 'terms', field: FIELDS[q % 3], terms, operator: 'and', boost: 1 };
      if (new Set(terms).size < terms.length) continue;
      const expected = topK(query, 10, 0, false);
      const actual = topK(query, 10, 0, true);
      assert.deepEqual(actual.hits, expected.hits, `query ${terms.join(' ')} on ${FIELDS[q % 3]}`);
    }
  });
});
