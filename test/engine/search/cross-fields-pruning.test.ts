/**
 * An "or" cross_fields query is scored as one disjunction of its (field, word) terms so that
 * MaxScore can skip docs; its top k must be exactly what scoring every matching doc gives. The
 * expected answer here is built independently: each word alone, every match, scores summed per doc
 * in word order (the arithmetic of the unflattened bool of dis_max queries).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Index } from '../../../src/engine/search-index.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';
import { mulberry32 } from '../../../bench/queries.js';

const mapping = { fields: { title: { type: 'text' }, body: { type: 'text' } } };

/** Zipf-like word draws: w0 is in most docs, w29 in a few, so postings span many blocks. */
const WORDS = Array.from({ length: 30 }, (_, i) => `w${i}`);

function words(random: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(WORDS.length * random() ** 2.5)]).join(' ');
}

let index: Index;

before(async () => {
  const random = mulberry32(17);
  index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
  // Three segments, so that weights come from the whole snapshot and docs from several segments.
  for (let batch = 0; batch < 3; batch++) {
    const docs = Array.from({ length: 1500 }, (_, i) => ({
      _id: `d${batch}-${i}`,
      title: words(random, 1 + Math.floor(random() * 4)),
      body: words(random, Math.floor(random() * 30)),
    }));
    await index.upsert(docs);
    await index.refresh();
  }
});

after(async () => {
  await index.close();
});

type Options = { readonly fields: readonly string[]; readonly tie_breaker?: number };

/**
 * Every doc matching one word of the query, with that word's cross_fields score, through another
 * query shape (a dis_max of per-field match queries) so that the answer does not depend on the code
 * under test.
 */
function wordScores(word: string, options: Options): Map<string, number> {
  const queries = options.fields.map((spec) => {
    const [field, boost = '1'] = spec.split('^');
    return { match: { [field]: { query: word, boost: Number(boost) } } };
  });
  const query = { dis_max: { queries, tie_breaker: options.tie_breaker ?? 0 } };
  const res = index.search({ query, size: 10_000, track_total_hits: true });
  return new Map(res.hits.map((h) => [h._id, h._score]));
}

/** The top k of a multi-word "or" query, computed by scoring every matching doc. */
function exhaustiveTopK(text: string, options: Options, k: number): { id: string; score: number }[] {
  const perWord = text.split(' ').map((w) => wordScores(w, options));
  const total = new Map<string, number>();
  for (const scores of perWord) {
    for (const [id, s] of scores) total.set(id, (total.get(id) ?? 0) + s);
  }
  // Ties in index order: ids are d<batch>-<i>, added in that order.
  const order = new Map([...total.keys()].sort(byIndexOrder).map((id, i) => [id, i]));
  return [...total.entries()]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || order.get(a.id)! - order.get(b.id)!)
    .slice(0, k);
}

function byIndexOrder(a: string, b: string): number {
  const [ba, ia] = a.slice(1).split('-').map(Number);
  const [bb, ib] = b.slice(1).split('-').map(Number);
  return ba - bb || ia - ib;
}

describe('cross_fields "or" with MaxScore pruning', () => {
  const cases: [string, Options][] = [
    ['w0', { fields: ['title', 'body'] }],
    ['w0 w1', { fields: ['title', 'body'] }],
    ['w0 w1 w2', { fields: ['title', 'body'] }],
    ['w0 w25 w3', { fields: ['title', 'body'] }],
    ['w1 w0 w28', { fields: ['title^3', 'body'] }],
    ['w2 w0 w1', { fields: ['title', 'body'], tie_breaker: 0.3 }],
    ['w0 w4 w9 w1', { fields: ['title^2', 'body'], tie_breaker: 0.1 }],
    ['w0 w29', { fields: ['body'] }],
  ];
  for (const [text, options] of cases) {
    it(`returns the exhaustive top 10 for "${text}" over ${options.fields.join(', ')}${options.tie_breaker === undefined ? '' : ` (tie_breaker ${options.tie_breaker})`}`, () => {
      const expected = exhaustiveTopK(text, options, 10);
      // track_total_hits false: counting stops at once and MaxScore prunes from the first window.
      const pruned = index.search({ query: { multi_match: { query: text, type: 'cross_fields', ...options } }, size: 10, track_total_hits: false });
      assert.equal(expected.length, 10);
      assert.deepEqual(pruned.hits.map((h) => ({ id: h._id, score: h._score })), expected);
      // Counting every match (no pruning) finds the same top 10.
      const all = index.search({ query: { multi_match: { query: text, type: 'cross_fields', ...options } }, size: 10, track_total_hits: true });
      assert.deepEqual(all.hits.map((h) => h._id), expected.map((h) => h.id));
    });
  }

  it('skips docs that cannot make the top 10 of a query of two common words', () => {
    const res = index.search({ query: { multi_match: { query: 'w0 w1', type: 'cross_fields', fields: ['title', 'body'] } }, size: 10, track_total_hits: 1 });
    const all = index.search({ query: { multi_match: { query: 'w0 w1', type: 'cross_fields', fields: ['title', 'body'] } }, size: 10, track_total_hits: true });
    assert.equal(res.total_relation, 'gte');
    assert.ok(res.total < all.total / 2, `counted ${res.total} of ${all.total} matches`);
  });
});

/** The top k of a multi-word "and" query: docs matching every word, word scores added in word order. */
function exhaustiveAndTopK(text: string, options: Options, k: number): { id: string; score: number }[] {
  const perWord = text.split(' ').map((w) => wordScores(w, options));
  const total = new Map<string, number>();
  for (const id of perWord[0].keys()) {
    if (!perWord.every((scores) => scores.has(id))) continue;
    let sum = 0;
    for (const scores of perWord) sum += scores.get(id)!;
    total.set(id, sum);
  }
  return [...total.entries()]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || byIndexOrder(a.id, b.id))
    .slice(0, k);
}

describe('"and" queries with block-max conjunction pruning', () => {
  const cases: [string, Options][] = [
    ['w0 w1', { fields: ['title', 'body'] }],
    ['w1 w0 w2', { fields: ['title', 'body'] }],
    ['w0 w12', { fields: ['title^3', 'body'] }],
    ['w3 w0', { fields: ['title', 'body'], tie_breaker: 0.3 }],
    ['w0 w1 w2 w3', { fields: ['title^2', 'body'], tie_breaker: 0.1 }],
    ['w0 w1', { fields: ['body'] }],
    ['w2 w0 w1', { fields: ['body'] }],
  ];
  for (const [text, options] of cases) {
    it(`returns the exhaustive top 10 for "${text}" over ${options.fields.join(', ')}${options.tie_breaker === undefined ? '' : ` (tie_breaker ${options.tie_breaker})`}`, () => {
      const expected = exhaustiveAndTopK(text, options, 10);
      const query = { multi_match: { query: text, type: 'cross_fields', operator: 'and', ...options } };
      const pruned = index.search({ query, size: 10, track_total_hits: false });
      assert.equal(expected.length, 10);
      assert.deepEqual(pruned.hits.map((h) => ({ id: h._id, score: h._score })), expected);
      const all = index.search({ query, size: 10, track_total_hits: true });
      assert.deepEqual(all.hits.map((h) => ({ id: h._id, score: h._score })), expected);
    });
  }

  it('returns the exhaustive top 10 of a one-field "and" match (a conjunction of term scorers)', () => {
    const expected = exhaustiveAndTopK('w0 w1 w2', { fields: ['body'] }, 10);
    const pruned = index.search({ query: { match: { body: { query: 'w0 w1 w2', operator: 'and' } } }, size: 10, track_total_hits: false });
    assert.deepEqual(pruned.hits.map((h) => ({ id: h._id, score: h._score })), expected);
  });

  it('passes over docs of a common lead that cannot make the top 10', () => {
    const query = { multi_match: { query: 'w0 w1', type: 'cross_fields', operator: 'and', fields: ['title', 'body'] } };
    const res = index.search({ query, size: 10, track_total_hits: 1 });
    const all = index.search({ query, size: 10, track_total_hits: true });
    assert.equal(res.total_relation, 'gte');
    assert.ok(res.total < all.total / 2, `counted ${res.total} of ${all.total} matches`);
  });
});
