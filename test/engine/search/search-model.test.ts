import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Index } from '../../../src/engine/search-index.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';
import { modelCompare, modelFilter, modelScore, modelSortValue } from '../../helpers/search-model.js';
import type { ModelDoc, ModelFilter, ModelQuery, ModelSortKey } from '../../helpers/search-model.js';

const mapping = {
  fields: {
    title: { type: 'text' },
    body: { type: 'text' },
    tag: { type: 'text[]', search: false, filter: true, facet: true, sort: true },
    num: { type: 'int', filter: true, facet: true, sort: true },
  },
};

const WORDS = Array.from({ length: 12 }, (_, i) => `w${i}`);
const word = fc.integer({ min: 0, max: 999 }).map((r) => WORDS[Math.floor(WORDS.length * (r / 1000) ** 2)]);
const TAGS = ['red', 'green', 'blue', 'black'];

const doc = fc.record({
  title: fc.array(word, { maxLength: 5 }),
  body: fc.array(word, { maxLength: 25 }),
  tag: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 2 }),
  num: fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }),
});

const leafQuery: fc.Arbitrary<ModelQuery> = fc.oneof(
  fc.constant({ kind: 'match_all' } as const),
  fc.record({ kind: fc.constant('match' as const), field: fc.constantFrom('title' as const, 'body' as const), terms: fc.array(word, { minLength: 1, maxLength: 3 }), operator: fc.constantFrom('or' as const, 'and' as const) }),
  fc.record({ kind: fc.constant('phrase' as const), terms: fc.array(word, { minLength: 1, maxLength: 3 }), slop: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ kind: fc.constant('prefix' as const), prefix: fc.constantFrom('w', 'w1', 'w2', 'w11') }),
);
const query: fc.Arbitrary<ModelQuery> = fc.oneof(
  { weight: 2, arbitrary: leafQuery },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('bool' as const),
      must: fc.array(leafQuery, { maxLength: 2 }),
      should: fc.array(leafQuery, { maxLength: 3 }),
      mustNot: fc.array(leafQuery, { maxLength: 1 }),
      filter: fc.array(leafQuery, { maxLength: 1 }),
    }),
  },
);
const leafFilter: fc.Arbitrary<ModelFilter> = fc.oneof(
  fc.record({ kind: fc.constant('term' as const), tags: fc.uniqueArray(fc.constantFrom(...TAGS), { minLength: 1, maxLength: 2 }) }),
  fc.record({ kind: fc.constant('range' as const), gte: fc.integer({ min: 0, max: 20 }), lt: fc.integer({ min: 0, max: 25 }) }),
);
const filter: fc.Arbitrary<ModelFilter> = fc.oneof(
  leafFilter,
  fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), filters: fc.array(leafFilter, { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('not' as const), filter: leafFilter }),
);
const fieldSort: fc.Arbitrary<ModelSortKey[]> = fc.array(
  fc.record({ by: fc.constantFrom('num' as const, 'tag' as const), order: fc.constantFrom('asc' as const, 'desc' as const), missing: fc.constantFrom('first' as const, 'last' as const) }),
  { minLength: 1, maxLength: 2 },
);

function queryJson(q: ModelQuery): unknown {
  switch (q.kind) {
    case 'match_all':
      return { match_all: {} };
    case 'match':
      return { match: { [q.field]: { query: q.terms.join(' '), operator: q.operator } } };
    case 'phrase':
      return { match_phrase: { body: { query: q.terms.join(' '), slop: q.slop } } };
    case 'prefix':
      return { prefix: { title: q.prefix } };
    case 'bool':
      return { bool: { must: q.must.map(queryJson), should: q.should.map(queryJson), must_not: q.mustNot.map(queryJson), filter: q.filter.map(queryJson) } };
  }
}

function filterJson(f: ModelFilter): unknown {
  switch (f.kind) {
    case 'term':
      return f.tags.length === 1 ? { term: { tag: f.tags[0] } } : { terms: { tag: f.tags } };
    case 'range':
      return { range: { num: { gte: f.gte, lt: f.lt } } };
    case 'and':
    case 'or':
      return { [f.kind]: f.filters.map(filterJson) };
    case 'not':
      return { not: filterJson(f.filter) };
  }
}

async function build(rows: Omit<ModelDoc, 'id'>[]): Promise<{ docs: ModelDoc[]; index: Index }> {
  const docs = rows.map((r, i) => ({ ...r, id: `d${String(i).padStart(3, '0')}` }));
  const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
  const half = Math.ceil(docs.length / 2);
  for (const part of [docs.slice(0, half), docs.slice(half)]) {
    await index.upsert(part.map((d) => ({ _id: d.id, title: d.title.join(' '), body: d.body.join(' '), tag: d.tag, num: d.num })));
    await index.refresh();
  }
  return { docs, index };
}

/** Matching docs with scores, under query and filters. */
function matches(docs: ModelDoc[], q: ModelQuery, include: ModelFilter | null, exclude: ModelFilter | null): { doc: ModelDoc; score: number }[] {
  const out: { doc: ModelDoc; score: number }[] = [];
  for (const d of docs) {
    if (include !== null && !modelFilter(d, include)) continue;
    if (exclude !== null && modelFilter(d, exclude)) continue;
    const score = modelScore(docs, d, q);
    if (score !== null) out.push({ doc: d, score });
  }
  return out;
}

describe('Index.search against a naive model', () => {
  it('agrees on hits, totals, scores and aggregation counts for queries with filters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(doc, { minLength: 1, maxLength: 80 }),
        fc.array(fc.record({ q: query, include: fc.option(filter, { nil: null }), exclude: fc.option(filter, { nil: null }), size: fc.integer({ min: 1, max: 15 }) }), { minLength: 1, maxLength: 6 }),
        async (rows, requests) => {
          const { docs, index } = await build(rows);
          try {
            for (const r of requests) {
              const expected = matches(docs, r.q, r.include, r.exclude).sort((a, b) => b.score - a.score);
              const filters: Record<string, unknown> = {};
              if (r.include !== null) filters.include = filterJson(r.include);
              if (r.exclude !== null) filters.exclude = filterJson(r.exclude);
              const res = index.search({
                query: queryJson(r.q),
                filters,
                size: r.size,
                track_total_hits: true,
                aggs: { tags: { term: { field: 'tag', size: 'all' } }, nums: { range: { field: 'num', ranges: [{ lt: 5 }, { gte: 5, lt: 15 }, { gte: 15 }] } } },
              });
              const context = JSON.stringify(r);
              assert.equal(res.total, expected.length, `total for ${context}`);
              const top = expected.slice(0, r.size);
              assert.equal(res.hits.length, top.length);
              res.hits.forEach((h, i) => { assert.ok(Math.abs(h._score - top[i].score) < 1e-6, `score at ${i} for ${context}: ${h._score} vs ${top[i].score}`); });
              const cut = top.length > 0 ? top[top.length - 1].score : 0;
              const sure = (ids: { id: string; score: number }[]): string[] => ids.filter((x) => x.score > cut + 1e-9).map((x) => x.id).sort();
              assert.deepEqual(sure(res.hits.map((h) => ({ id: h._id, score: h._score }))), sure(top.map((t) => ({ id: t.doc.id, score: t.score }))));
              // Aggregations count every match, not only the page.
              const tagCounts = new Map<string, number>();
              for (const m of expected) for (const t of m.doc.tag) tagCounts.set(t, (tagCounts.get(t) ?? 0) + 1);
              const buckets = (res.aggs?.tags.buckets ?? []) as { term: string; count: number }[];
              assert.deepEqual(new Map(buckets.map((b) => [b.term, b.count])), tagCounts, `tag counts for ${context}`);
              const ranges = [(n: number) => n < 5, (n: number) => n >= 5 && n < 15, (n: number) => n >= 15];
              const rangeBuckets = (res.aggs?.nums.buckets ?? []) as { count: number }[];
              assert.deepEqual(rangeBuckets.map((b) => b.count), ranges.map((p) => expected.filter((m) => m.doc.num !== null && p(m.doc.num)).length));
            }
          } finally {
            await index.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('agrees on field sorts, from/size pages and search_after pages', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(doc, { minLength: 1, maxLength: 60 }),
        query,
        fc.option(filter, { nil: null }),
        fieldSort,
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 1, max: 10 }),
        async (rows, q, include, keys, from, size) => {
          const { docs, index } = await build(rows);
          try {
            const expected = matches(docs, q, include, null)
              .map((m) => ({ id: m.doc.id, values: keys.map((k) => modelSortValue(m.doc, m.score, k)) }))
              .sort((a, b) => modelCompare(a, b, keys));
            const sort = keys.map((k) => ({ [k.by]: { order: k.order, missing: k.missing } }));
            const request = { query: queryJson(q), filters: include === null ? {} : { include: filterJson(include) }, sort };
            const page = index.search({ ...request, from, size });
            assert.deepEqual(page.hits.map((h) => h._id), expected.slice(from, from + size).map((e) => e.id), 'from/size page');
            const first = index.search({ ...request, size });
            const last = first.hits.at(-1);
            if (last === undefined) return;
            const next = index.search({ ...request, size, search_after: last._sort });
            assert.deepEqual(next.hits.map((h) => h._id), expected.slice(size, 2 * size).map((e) => e.id), 'search_after page');
          } finally {
            await index.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
