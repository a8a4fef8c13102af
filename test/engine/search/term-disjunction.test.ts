/**
 * The flat disjunction of terms (term-disjunction.ts) must find exactly what the general MaxScore
 * through the clause scorers finds: the same docs, scores, order and hit count. Both run here on
 * the same index of real documents (the first lines of the Debian corpus: several segments,
 * deleted docs, words in short and long fields, postings of one block and of many) for random
 * queries of every disjunction shape the query parser builds: an "or" cross_fields query (a sum
 * over words of each word's dis_max over fields, with and without tie breaker and boosts),
 * best_fields over "or" groups, a dis_max of single terms and an "or" match on one field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Index } from '../../../src/engine/search-index.js';
import type { Snapshot } from '../../../src/engine/segment/snapshot.js';
import { scoreClauseMaxScore } from '../../../src/engine/search/bulk-scorer.js';
import { DisjunctionScorer } from '../../../src/engine/search/disjunction-scorer.js';
import type { Query } from '../../../src/engine/search/query.js';
import { buildScorer } from '../../../src/engine/search/scorer-builder.js';
import { scoreTermDisjunction } from '../../../src/engine/search/term-disjunction.js';
import { TopKCollector } from '../../../src/engine/search/top-k-collector.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';
import { mulberry32, queryWords } from '../../../bench/queries.js';
import { corpusLines } from '../../helpers/corpus-sample.js';
import { snapshotScoring } from '../../helpers/snapshot-scoring.js';

const FIELDS = ['name', 'summary', 'description'] as const;
// The standard analyzer: the corpus's lowercase ASCII words (bench/queries.ts's queryWords) are its terms.
const mapping = { fields: { name: { type: 'text' }, summary: { type: 'text' }, description: { type: 'text' } } };

const random = mulberry32(2417);
let index: Index;
let snapshot: Snapshot;
/** The sample's query words by descending document frequency. */
let vocabulary: string[] = [];

before(async () => {
  const lines = new TextDecoder().decode(corpusLines('debian-packages.jsonl.gz', 4_000)).split('\n').filter((l) => l.length > 0);
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  const docs = lines.map((l) => JSON.parse(l) as Record<string, unknown>).map((d) => ({
    _id: text(d._id),
    name: text(d.name),
    summary: text(d.summary),
    description: text(d.description),
  }));
  const df = new Map<string, number>();
  for (const d of docs) for (const w of queryWords(`${d.name} ${d.summary} ${d.description}`)) df.set(w, (df.get(w) ?? 0) + 1);
  vocabulary = [...df.entries()].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
  index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
  // Segments of different sizes, so that postings are of one block in some and of many in others.
  for (const [from, to] of [[0, 2400], [2400, 3500], [3500, docs.length]]) {
    await index.upsert(docs.slice(from, to));
    await index.refresh();
  }
  await index.delete(docs.filter((_, i) => i % 17 === 0).map((d) => d._id));
  await index.refresh();
  snapshot = index.reader().acquireSnapshot();
});

after(async () => {
  snapshot.release();
  await index.close();
});

const scoring = snapshotScoring(() => snapshot);

/** A word, frequent ones drawn more often (a Zipf-like draw over the sample's vocabulary). */
function word(): string {
  return vocabulary[Math.floor(vocabulary.length * random() ** 3)];
}

function term(field: string, t: string, boost: number): Query {
  return { kind: 'terms', field, terms: [t], operator: 'or', boost };
}

/** The shapes of the query parser's disjunctions over `terms`. */
function randomQuery(q: number, terms: readonly string[]): Query {
  const boosts = q % 3 === 0 ? [3, 1.5, 1] : [1, 1, 1];
  const tieBreaker = q % 4 === 0 ? 0.3 : 0;
  switch (q % 4) {
    case 0:
    case 1: {
      // "or" cross_fields: a bool should of words, each a dis_max over the fields.
      const should = terms.map((t) => ({ kind: 'dis_max' as const, clauses: FIELDS.map((f, i) => term(f, t, boosts[i])), tieBreaker }));
      return { kind: 'bool', must: [], should, mustNot: [], filter: [], minimumShouldMatch: 1, boost: 1 };
    }
    case 2:
      // best_fields: a dis_max over fields of each field's "or" group.
      return { kind: 'dis_max', clauses: FIELDS.map((f, i) => ({ kind: 'terms', field: f, terms: [...new Set(terms)], operator: 'or', boost: boosts[i] })), tieBreaker: q % 8 === 2 ? 0.2 : 0 };
    default:
      // An "or" match on one field.
      return { kind: 'terms', field: FIELDS[q % 3], terms: [...new Set(terms)], operator: 'or', boost: 1 };
  }
}

type Result = { hits: { doc: number; score: number }[]; totalHits: number; flatSegments: number };

/** The top k of `query`, each segment's disjunction scored by the flat path or the general one. */
function topK(query: Query, k: number, countUpTo: number, flat: boolean): Result {
  const collector = new TopKCollector(k);
  const ctx = { collector, countUpTo };
  let flatSegments = 0;
  for (const segment of snapshot.segments) {
    const mark = scoring.buffers!.mark;
    const scorer = buildScorer(query, segment, scoring);
    if (scorer === null) continue;
    const live = segment.liveDocs.liveCount === segment.reader.maxDoc ? null : segment.liveDocs;
    if (!(scorer instanceof DisjunctionScorer)) continue;
    if (flat) {
      assert.ok(scoreTermDisjunction(scorer.clauses, scorer.combiner, live, segment.docBase, ctx), 'the flat disjunction takes this shape');
      flatSegments++;
    } else {
      scoreClauseMaxScore(scorer.clauses, scorer.combiner, live, segment.docBase, ctx);
    }
    scoring.buffers!.release(mark);
  }
  return { hits: collector.results(), totalHits: collector.totalHits, flatSegments };
}

describe('flat term disjunction', () => {
  it('returns the general MaxScore\'s top k, scores and hit count on random disjunctions of real documents\' words', () => {
    let compared = 0;
    for (let q = 0; q < 240; q++) {
      const terms = Array.from({ length: 1 + Math.floor(random() * 4) }, word);
      const query = randomQuery(q, terms);
      const k = [1, 10, 50][q % 3];
      const countUpTo = [0, 10, 0, Infinity][q % 4];
      const expected = topK(query, k, countUpTo, false);
      const actual = topK(query, k, countUpTo, true);
      const what = `query ${q} (${terms.join(' ')}, k ${k}, countUpTo ${countUpTo})`;
      assert.deepEqual(actual.hits, expected.hits, what);
      assert.equal(actual.totalHits, expected.totalHits, what);
      if (actual.flatSegments > 0 && expected.hits.length > 0) compared++;
    }
    // Most queries are disjunctions with hits, so the comparison is not over empty lists.
    assert.ok(compared > 150, `${compared} queries compared`);
  });
});
