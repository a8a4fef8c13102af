import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { Index } from '../../../src/engine/search-index.js';
import type { SearchRequest } from '../../../src/engine/search-index.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';

const mapping = {
  fields: {
    title: { type: 'text', search: { lexical: { analyze: 'english' } } },
    body: { type: 'text', search: { lexical: { analyze: 'english' } } },
    genre: { type: 'text[]', search: false, filter: true, facet: true },
    year: { type: 'int', filter: true, sort: true, facet: true },
    released: { type: 'date', filter: true, sort: true },
    plain: { type: 'text' },
  },
};

const movies = [
  { _id: 'm1', title: 'The Hello Machine', body: 'A machine that says hello to every visitor.', genre: ['comedy'], year: 1999, released: '1999-05-01', plain: 'x' },
  { _id: 'm2', title: 'Helo Rescue', body: 'Rescue helicopters over a stormy sea.', genre: ['action'], year: 2005, released: '2005-07-10', plain: 'x' },
  { _id: 'm3', title: 'Quiet Harbour', body: 'A quiet harbour town, and a machine that never sleeps.', genre: ['drama', 'mystery'], year: 2010, released: '2010-01-20', plain: 'x' },
  { _id: 'm4', title: 'Machine Learning Blues', body: 'Blues musicians teach a machine to play.', genre: ['drama', 'music'], year: 2020, plain: 'x' },
  { _id: 'm5', title: 'Stormy Sea', body: 'The sea is stormy and the rescue is late.', genre: ['action', 'drama'], released: '2015-03-03', plain: 'x' },
];

const ids = (r: { hits: readonly { _id: string }[] }): string[] => r.hits.map((h) => h._id);

describe('search features', () => {
  let index: Index;
  before(async () => {
    index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
    await index.upsert(movies.slice(0, 3));
    await index.refresh();
    await index.upsert(movies.slice(3));
    await index.refresh();
  });
  after(async () => {
    await index.close();
  });

  it('matches near spellings with fuzzy queries, within the edit distance asked', () => {
    assert.deepEqual(ids(index.search({ query: { fuzzy: { title: { value: 'helo', fuzziness: 1 } } } })).sort(), ['m1', 'm2']);
    assert.deepEqual(ids(index.search({ query: { fuzzy: { title: { value: 'helo', fuzziness: 0 } } } })), ['m2']);
    assert.deepEqual(ids(index.search({ query: { fuzzy: { title: 'machin' } } })).sort(), ['m1', 'm4']);
  });

  it('matches prefixes with a constant score', () => {
    const res = index.search({ query: { prefix: { title: 'mach' } } });
    assert.deepEqual(ids(res).sort(), ['m1', 'm4']);
    assert.ok(res.hits.every((h) => h._score === 1));
  });

  it('matches phrases exactly, or within a slop', () => {
    assert.deepEqual(ids(index.search({ query: { match_phrase: { body: 'stormy sea' } } })), ['m2']);
    assert.deepEqual(ids(index.search({ query: { match_phrase: { body: { query: 'sea stormy', slop: 2 } } } })).sort(), ['m2', 'm5']);
    assert.deepEqual(ids(index.search({ query: { match_phrase: { body: { query: 'sea stormy', slop: 0 } } } })), []);
  });

  it('combines dis_max clauses with a tie breaker', () => {
    const q = (tie: number): SearchRequest => ({ query: { dis_max: { queries: [{ match: { title: 'machine' } }, { match: { body: 'machine' } }], tie_breaker: tie } } });
    const plain = index.search(q(0)).hits.find((h) => h._id === 'm1')!._score;
    const tied = index.search(q(0.5)).hits.find((h) => h._id === 'm1')!._score;
    assert.ok(tied > plain);
  });

  it('parses the simple query syntax of ?q=', () => {
    assert.deepEqual(ids(index.search({ q: '+machine -blues' })).sort(), ['m1', 'm3']);
    assert.deepEqual(ids(index.search({ q: 'title:"stormy sea"' })), ['m5']);
    assert.deepEqual(ids(index.search({ q: 'harb*' })), ['m3']);
    assert.throws(() => index.search({ q: '"unclosed' }), (e: unknown) => e instanceof YarrowError && e.code === ErrorCode.invalidQuery);
  });

  it('highlights matched terms in the requested fields', () => {
    const [hit] = index.search({ query: { match: { body: 'helicopters' } }, highlight: { fields: ['body', 'title'] } }).hits;
    assert.deepEqual(hit._highlight, { body: ['Rescue <em>helicopters</em> over a stormy sea.'] });
  });

  it('filters on dates and keywords, sorts with missing values last, and facets', () => {
    const res = index.search({
      filters: { include: { range: { released: { gte: '2000-01-01' } } }, exclude: { term: { genre: 'mystery' } } },
      sort: [{ year: { order: 'desc' } }],
      aggs: { genres: { term: { field: 'genre' } }, decades: { range: { field: 'year', ranges: [{ lt: 2000 }, { gte: 2000 }] } } },
    });
    assert.deepEqual(ids(res), ['m2', 'm5']);
    assert.deepEqual(res.hits.map((h) => h._sort), [[2005, 'm2'], [null, 'm5']]);
    assert.deepEqual(res.aggs, {
      genres: { buckets: [{ term: 'action', count: 2 }, { term: 'drama', count: 1 }] },
      decades: { buckets: [{ lt: 2000, count: 0 }, { gte: 2000, count: 1 }] },
    });
  });

  it('names the field when a filter, sort or aggregation uses a field not marked for it', () => {
    const check = (request: SearchRequest, pattern: RegExp): void => {
      assert.throws(() => index.search(request), (e: unknown) => e instanceof YarrowError && e.code === ErrorCode.invalidQuery && pattern.test(e.message));
    };
    check({ filters: { include: { term: { plain: 'x' } } } }, /field "plain" is not filterable/);
    check({ sort: ['plain'] }, /field "plain" is not sortable/);
    check({ aggs: { a: { term: { field: 'plain' } } } }, /field "plain" is not facetable/);
    check({ filters: { include: { range: { year: { gte: 'nineteen' } } } } }, /expected a number for field "year"/);
  });

  it('says whether the total is exact', () => {
    const filtered = { query: { match_all: {} }, size: 1, filters: { include: { range: { year: { gte: 0 } } } } };
    const capped = index.search({ ...filtered, track_total_hits: 2 });
    assert.equal(capped.total_relation, 'gte');
    assert.ok(capped.total >= 2);
    assert.deepEqual([index.search({ ...filtered, track_total_hits: 10 }).total, index.search({ ...filtered, track_total_hits: 10 }).total_relation], [4, 'eq']);
    const pruned = index.search({ query: { match: { body: 'machine sea rescue' } }, size: 1, track_total_hits: 0 });
    assert.ok(pruned.total <= 5);
    assert.equal(index.search({ query: { match: { body: 'machine sea rescue' } }, track_total_hits: true }).total_relation, 'eq');
  });
});

describe('deletes', () => {
  it('are visible to every query type, filter, sort and aggregation', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
    await index.upsert(movies);
    await index.refresh();
    await index.delete(['m1', 'm2', 'm5']);
    await index.refresh();
    const requests: SearchRequest[] = [
      { query: { match_all: {} } },
      { query: { match: { body: 'machine rescue sea hello' } } },
      { query: { multi_match: { query: 'machine rescue stormy', fields: ['title', 'body'] } } },
      { query: { bool: { should: [{ match: { title: 'hello' } }, { match: { body: 'stormy' } }, { match: { body: 'machine' } }] } } },
      { query: { match_phrase: { body: { query: 'stormy sea', slop: 3 } } } },
      { query: { prefix: { title: 'h' } } },
      { query: { fuzzy: { title: 'helo' } } },
      { q: 'machine OR rescue' },
      { filters: { include: { term: { genre: 'action' } } } },
      { sort: [{ year: 'asc' }] },
      { aggs: { g: { term: { field: 'genre', size: 'all' } } } },
    ];
    for (const request of requests) {
      const res = index.search({ ...request, track_total_hits: true });
      for (const hit of res.hits) assert.ok(['m3', 'm4'].includes(hit._id), `${JSON.stringify(request)} returned deleted ${hit._id}`);
      assert.ok(res.total <= 2, `${JSON.stringify(request)} counted deleted docs`);
    }
    const aggs = index.search({ aggs: { g: { term: { field: 'genre', size: 'all' } } } }).aggs;
    assert.deepEqual(aggs, { g: { buckets: [{ term: 'drama', count: 2 }, { term: 'music', count: 1 }, { term: 'mystery', count: 1 }] } });
    await index.close();
  });
});
