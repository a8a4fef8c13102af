import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { YarrowError } from '../../../src/engine/errors.js';
import { Index } from '../../../src/engine/search-index.js';
import type { SearchHit } from '../../../src/engine/search-index.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';

/** Titles and bodies that rank differently for the same words, so the fused order differs from both lists. */
const docs = [
  { _id: 'a', title: 'river boats', body: 'a guide to canals', kind: 'guide' },
  { _id: 'b', title: 'canal boats', body: 'river river river cruising', kind: 'guide' },
  { _id: 'c', title: 'river fishing', body: 'boats and rods', kind: 'sport' },
  { _id: 'd', title: 'mountain huts', body: 'river crossings on foot', kind: 'sport' },
  { _id: 'e', title: 'boats', body: 'sailing boats on the open sea', kind: 'sport' },
  { _id: 'f', title: 'river', body: 'a river runs through it', kind: 'novel' },
  { _id: 'g', title: 'city parks', body: 'benches and trees', kind: 'guide' },
];

const titleQuery = { match: { title: 'river boats' } };
const bodyQuery = { match: { body: 'river boats' } };

describe('rrf and linear fusion', () => {
  let index: Index;
  before(async () => {
    const text = { type: 'text', search: { lexical: { analyze: 'english' } } };
    index = await Index.open(new MemoryDirectory(), { mapping: { fields: { title: text, body: text, kind: { type: 'text', filter: true, facet: true, search: false } } }, refreshIntervalMs: 0 });
    await index.upsert(docs);
    await index.refresh();
  });
  after(async () => index.close());

  const ranked = (query: unknown, size = 100, filters?: unknown): readonly SearchHit[] => index.search({ query, size, fields: [], ...(filters === undefined ? {} : { filters }) }).hits;

  it('scores each doc by the sum of 1 / (k + rank) over the lists it is in', () => {
    const lists = [ranked(titleQuery), ranked(bodyQuery)];
    const expected = new Map<string, number>();
    for (const list of lists) list.forEach((h, i) => expected.set(h._id, (expected.get(h._id) ?? 0) + 1 / (10 + i + 1)));
    const res = index.search({ query: { rrf: { retrieve: [titleQuery, bodyQuery], k: 10, rank_window_size: 100 } }, size: 100, fields: [] });
    assert.equal(res.total, expected.size);
    assert.deepEqual(new Set(res.hits.map((h) => h._id)), new Set(expected.keys()));
    for (const h of res.hits) assert.ok(Math.abs(h._score - expected.get(h._id)!) < 1e-12, h._id);
    for (let i = 1; i < res.hits.length; i++) assert.ok(res.hits[i - 1]._score >= res.hits[i]._score);
    // A doc both lists rank well beats the top doc of one list alone.
    assert.notDeepEqual(res.hits.map((h) => h._id), lists[0].map((h) => h._id));
  });

  it('reads Nixiesearch docs\' "queries" key as "retrieve" and defaults k to 60', () => {
    const a = index.search({ query: { rrf: { queries: [titleQuery, bodyQuery] } }, size: 3, fields: [] });
    const b = index.search({ query: { rrf: { retrieve: [titleQuery, bodyQuery], k: 60 } }, size: 3, fields: [] });
    assert.deepEqual(a.hits, b.hits);
    // Two lists at k = 60: no score can exceed two first ranks.
    assert.ok(a.hits[0]._score <= 2 / 61 + 1e-12 && a.hits[0]._score > 1 / 61);
  });

  it('blends min-max-normalised scores by weight: a zero weight leaves the other list\'s order', () => {
    const titleOnly = index.search({ query: { linear: { retrieve: [{ query: titleQuery, weight: 1 }, { query: bodyQuery, weight: 0 }], rank_window_size: 100 } }, size: 100, fields: [] });
    const titles = ranked(titleQuery);
    assert.deepEqual(titleOnly.hits.slice(0, titles.length).map((h) => h._id), titles.map((h) => h._id));
    const max = titles[0]._score;
    const min = titles[titles.length - 1]._score;
    titleOnly.hits.slice(0, titles.length).forEach((h, i) => { assert.ok(Math.abs(h._score - (titles[i]._score - min) / (max - min)) < 1e-9, h._id); });
    const both = index.search({ query: { linear: { retrieve: [titleQuery, { query: bodyQuery, weight: 2 }], rank_window_size: 100 } }, size: 1, fields: [] });
    assert.ok(both.hits[0]._score <= 3 && both.hits[0]._score > 1);
  });

  it('pages the fused window with from and size', () => {
    const query = { rrf: { retrieve: [titleQuery, bodyQuery], rank_window_size: 50 } };
    const all = index.search({ query, size: 50, fields: [] }).hits.map((h) => h._id);
    const page2 = index.search({ query, from: 2, size: 2, fields: [] }).hits.map((h) => h._id);
    assert.deepEqual(page2, all.slice(2, 4));
  });

  it('applies filters to every retriever and counts aggregations over the fused window', () => {
    const filters = { include: { term: { kind: 'sport' } } };
    const res = index.search({ query: { rrf: { retrieve: [titleQuery, bodyQuery], rank_window_size: 50 } }, filters, size: 10, fields: ['kind'], aggs: { kinds: { term: { field: 'kind' } } } });
    assert.ok(res.hits.length > 0);
    for (const h of res.hits) assert.equal(h.kind, 'sport');
    const buckets = (res.aggs?.kinds as { buckets: { term: string; count: number }[] }).buckets;
    assert.deepEqual(buckets, [{ term: 'sport', count: res.total }]);
    const unfiltered = index.search({ query: { rrf: { retrieve: [titleQuery, bodyQuery], rank_window_size: 50 } }, size: 0, aggs: { kinds: { term: { field: 'kind' } } } });
    const counts = (unfiltered.aggs?.kinds as { buckets: { count: number }[] }).buckets.reduce((n, b) => n + b.count, 0);
    assert.equal(counts, unfiltered.total);
  });

  it('answers size 0 without a window with nothing fused', () => {
    const res = index.search({ query: { rrf: { retrieve: [titleQuery, bodyQuery] } }, size: 0, aggs: { kinds: { term: { field: 'kind' } } } });
    assert.equal(res.total, 0);
    assert.deepEqual(res.hits, []);
    assert.deepEqual((res.aggs?.kinds as { buckets: unknown[] }).buckets, []);
  });

  it('keeps only each retriever\'s best rank_window_size docs', () => {
    const res = index.search({ query: { rrf: { retrieve: [titleQuery, bodyQuery], rank_window_size: 1 } }, size: 10, fields: [] });
    const tops = new Set([ranked(titleQuery)[0]._id, ranked(bodyQuery)[0]._id]);
    assert.deepEqual(new Set(res.hits.map((h) => h._id)), tops);
  });

  it('tells a synchronous search that a semantic query needs searchAsync, naming the path', () => {
    assert.throws(
      () => index.search({ query: { bool: { should: [{ semantic: { field: 'title', query: 'boats' } }] } } }),
      (e: unknown) => e instanceof YarrowError && /searchAsync/.test(e.message) && e.message.includes('query.bool.should[0].semantic'),
    );
  });

  it('refuses sort, nested fusions, unknown keys and bad weights with the path', () => {
    const refused = (request: Record<string, unknown>, path: RegExp): void => {
      assert.throws(() => index.search(request), (e: unknown) => e instanceof YarrowError && e.code === 'invalid_query' && path.test(e.message));
    };
    refused({ query: { rrf: { retrieve: [titleQuery] } }, sort: ['title'] }, /query\.rrf: cannot be combined with sort/);
    refused({ query: { rrf: { retrieve: [{ rrf: { retrieve: [titleQuery] } }] } } }, /query\.rrf\.retrieve\[0\]: a fusion query cannot/);
    refused({ query: { rrf: { retrieve: [titleQuery], window: 3 } } }, /query\.rrf\.window: unknown key/);
    refused({ query: { rrf: { retrieve: [] } } }, /query\.rrf\.retrieve: expected a non-empty array/);
    refused({ query: { linear: { retrieve: [{ query: titleQuery, weight: -1 }] } } }, /query\.linear\.retrieve\[0\]\.weight/);
    refused({ query: { rrf: { retrieve: [{ match: { nope: 'x' } }] } } }, /query\.rrf\.retrieve\[0\]\.match/);
  });
});
