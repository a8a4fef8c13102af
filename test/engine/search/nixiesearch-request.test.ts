/**
 * Search request keys of Nixiesearch 0.8 (issue 15): `order: default`, `not` in list form, unknown
 * keys refused naming the key, `aggs` with `size: "all"`, `fields` wildcards, `multi_match` boosts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { Index } from '../../../src/engine/search-index.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';

const mapping = {
  fields: {
    title: { type: 'text' },
    body: { type: 'text' },
    genre: { type: 'text', search: false, filter: true, facet: true },
    year: { type: 'int', filter: true, sort: true, facet: true },
    meta_a: { type: 'text', search: false },
    meta_b: { type: 'text', search: false },
  },
};
const docs = [
  { _id: 'a', title: 'red fox', body: 'quick', genre: 'g1', year: 2001, meta_a: 'x', meta_b: 'y' },
  { _id: 'b', title: 'quick fox', body: 'red', genre: 'g2', year: 2003, meta_a: 'x', meta_b: 'y' },
  { _id: 'c', title: 'lazy dog', body: 'red fox', genre: 'g3', meta_a: 'x', meta_b: 'y' },
  { _id: 'd', title: 'dog', body: 'dog', genre: 'g1', year: 2002, meta_a: 'x', meta_b: 'y' },
];
const ids = (r: { hits: readonly { _id: string }[] }): string[] => r.hits.map((h) => h._id);

describe('Nixiesearch 0.8 search request keys', () => {
  let index: Index;
  before(async () => {
    index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
    await index.upsert(docs);
    await index.refresh();
  });
  after(async () => { await index.close(); });

  it('sorts with order "default": the key\'s natural order, missing values where asked', () => {
    assert.deepEqual(ids(index.search({ sort: [{ year: { order: 'default', missing: 'first' } }] })), ['c', 'a', 'd', 'b']);
    assert.deepEqual(ids(index.search({ sort: [{ year: { order: 'default' } }] })), ['a', 'd', 'b', 'c']);
    const byScore = index.search({ query: { match: { title: 'fox red' } }, sort: [{ _score: { order: 'default' } }] });
    assert.equal(ids(byScore)[0], 'a');
  });

  it('reads `not` as a list: none of its filters may match', () => {
    const r = index.search({ filters: { include: { not: [{ term: { genre: 'g1' } }, { range: { year: { gte: 2003 } } }] } } });
    assert.deepEqual(ids(r), ['c']);
    assert.deepEqual(ids(index.search({ filters: { include: { not: [{ term: { genre: 'g1' } }] } } })).sort(), ['b', 'c']);
    assert.throws(() => index.search({ filters: { include: { not: [] } } }), /not: expected a filter or a non-empty array/);
  });

  it('refuses an unknown key of the request, naming it', () => {
    for (const key of ['rag', 'filter', 'limit']) {
      assert.throws(
        () => index.search({ [key]: {} }),
        (e: unknown) => e instanceof YarrowError && e.code === ErrorCode.invalidQuery && e.message.startsWith(`${key}: unknown key`) && (e.details as { field?: string }).field === key,
      );
    }
  });

  it('counts every value with aggs size "all", returns wildcard fields, and boosts title^N', () => {
    const aggs = index.search({ aggs: { g: { term: { field: 'genre', size: 'all' } } } }).aggs as Record<string, { buckets: { term: string; count: number }[] }>;
    assert.deepEqual(aggs.g.buckets, [{ term: 'g1', count: 2 }, { term: 'g2', count: 1 }, { term: 'g3', count: 1 }]);
    const hit = index.search({ query: { match: { title: 'dog' } }, fields: ['meta_*'], size: 1 }).hits[0];
    assert.deepEqual(Object.keys(hit).sort(), ['_id', '_score', 'meta_a', 'meta_b']);
    const plain = ids(index.search({ query: { multi_match: { query: 'red', fields: ['title', 'body'] } } }));
    const boosted = ids(index.search({ query: { multi_match: { query: 'red', fields: ['title^5', 'body'] } } }));
    assert.deepEqual(new Set(plain), new Set(boosted));
    assert.equal(boosted[0], 'a');
    assert.equal(ids(index.search({ query: { multi_match: { query: 'red', fields: ['title', 'body^5'] } } }))[0] === 'a', false);
  });
});
