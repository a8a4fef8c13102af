import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Index } from '../../../src/engine/search-index.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';
import { modelSearch } from '../../helpers/bm25-model.js';
import type { ModelDoc, ModelQuery } from '../../helpers/bm25-model.js';

const VOCABULARY = Array.from({ length: 40 }, (_, i) => `w${i}`);

/** Zipf-like word choice: low indexes are frequent, high ones rare. */
const word = fc.integer({ min: 0, max: 1_000_000 }).map((r) => VOCABULARY[Math.floor(VOCABULARY.length * (r / 1_000_001) ** 2.5)]);
const text = (max: number): fc.Arbitrary<string[]> => fc.array(word, { minLength: 0, maxLength: max });

const corpus = fc.array(fc.record({ title: text(6), body: text(60) }), { minLength: 1, maxLength: 400 });
const terms = fc.array(word, { minLength: 1, maxLength: 4 });
const query: fc.Arbitrary<ModelQuery> = fc.oneof(
  fc.record({
    kind: fc.constant('field' as const),
    field: fc.constantFrom('title', 'body'),
    terms,
    operator: fc.constantFrom('or' as const, 'and' as const),
  }),
  fc.record({
    kind: fc.constant('multi' as const),
    fields: fc.constant(['title', 'body']),
    terms,
    operator: fc.constantFrom('or' as const, 'and' as const),
    type: fc.constantFrom('best_fields' as const, 'most_fields' as const),
    tieBreaker: fc.constantFrom(0, 0.3, 1),
  }),
);

function toRequest(q: ModelQuery): unknown {
  if (q.kind === 'match_all') return { match_all: {} };
  if (q.kind === 'field') return { match: { [q.field]: { query: q.terms.join(' '), operator: q.operator } } };
  return { multi_match: { query: q.terms.join(' '), fields: q.fields, operator: q.operator, type: q.type, tie_breaker: q.tieBreaker } };
}

const mapping = { fields: { title: { type: 'text' }, body: { type: 'text' } } };

describe('Index.search', () => {
  it('returns the same ids and scores as a brute-force BM25 model', async () => {
    await fc.assert(
      fc.asyncProperty(
        corpus,
        fc.array(query, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 25 }),
        fc.integer({ min: 1, max: 4 }),
        async (rows, queries, size, batches) => {
          const docs: ModelDoc[] = rows.map((r, i) => ({ id: `d${i}`, fields: { title: r.title, body: r.body } }));
          const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, writer: { merges: batches > 2 } });
          try {
            // Several refreshes -> several segments, so per-segment scoring must use global statistics.
            const per = Math.ceil(docs.length / batches);
            for (let b = 0; b < docs.length; b += per) {
              await index.upsert(docs.slice(b, b + per).map((d) => ({ _id: d.id, title: d.fields.title.join(' '), body: d.fields.body.join(' ') })));
              await index.refresh();
            }
            for (const q of queries) {
              const expected = modelSearch(docs, q);
              const actual = index.search({ query: toRequest(q), size, track_total_hits: true });
              assert.equal(actual.total, expected.length, 'total');
              assertSameTop(actual.hits.map((h) => ({ id: h._id, score: h._score })), expected, size);
            }
          } finally {
            await index.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('prunes without changing results when only the top hits are counted', async () => {
    await fc.assert(
      fc.asyncProperty(corpus, fc.array(query, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 10 }), async (rows, queries, size) => {
        const docs: ModelDoc[] = rows.map((r, i) => ({ id: `d${i}`, fields: { title: r.title, body: r.body } }));
        const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
        try {
          await index.upsert(docs.map((d) => ({ _id: d.id, title: d.fields.title.join(' '), body: d.fields.body.join(' ') })));
          await index.refresh();
          for (const q of queries) {
            const expected = modelSearch(docs, q);
            const actual = index.search({ query: toRequest(q), size, track_total_hits: 0 });
            assertSameTop(actual.hits.map((h) => ({ id: h._id, score: h._score })), expected, size);
            assert.ok(actual.total <= expected.length);
          }
        } finally {
          await index.close();
        }
      }),
      { numRuns: 80 },
    );
  });
});

/**
 * The engine's top `size` equals the model's: same scores (to 1e-6) rank by rank, and the same ids
 * except among docs whose scores tie at the cut-off (which of them make the page is then a matter
 * of doc order, which merges may change).
 */
function assertSameTop(actual: { id: string; score: number }[], expected: { id: string; score: number }[], size: number): void {
  const top = expected.slice(0, size);
  assert.equal(actual.length, top.length, 'hit count');
  for (let i = 0; i < top.length; i++) {
    assert.ok(Math.abs(actual[i].score - top[i].score) <= 1e-6, `score at rank ${i}: ${actual[i].score} vs ${top[i].score}`);
  }
  if (top.length === 0) return;
  const cut = top[top.length - 1].score;
  const sure = (hits: { id: string; score: number }[]): string[] => hits.filter((h) => h.score > cut + 1e-9).map((h) => h.id).sort();
  assert.deepEqual(sure(actual), sure(top), 'ids above the cut-off');
  const tied = new Set(expected.filter((h) => Math.abs(h.score - cut) <= 1e-9).map((h) => h.id));
  for (const h of actual) if (Math.abs(h.score - cut) <= 1e-9) assert.ok(tied.has(h.id), `tied id ${h.id}`);
}
