/**
 * Runs a search plan over a snapshot: computes collection statistics once for the whole snapshot
 * (so scores do not depend on how docs are spread over segments), expands fuzzy queries against
 * the whole term dictionary, evaluates filters into per-segment doc sets, builds per-segment
 * scorers, and collects hits:
 * - by score, with dynamic pruning, when nothing forces visiting every match;
 * - exhaustively when the request sorts by fields, pages with `search_after` or aggregates.
 */
import { BlockBufferPool } from '../codec/postings/postings-reader.js';
import type { Snapshot, SegmentView } from '../segment/snapshot.js';
import { AggregationCollector } from './aggregations.js';
import type { Aggregation, AggregationResult } from './aggregations.js';
import { bm25Idf, bm25NormCache } from './bm25.js';
import { scoreConjunction, scoreMaxScore, scoreWithBlockMax } from './bulk-scorer.js';
import type { CollectContext } from './bulk-scorer.js';
import { ConjunctionScorer } from './conjunction-scorer.js';
import { DisjunctionScorer } from './disjunction-scorer.js';
import type { AcceptDocs } from './doc-set.js';
import { filterDocs } from './filter.js';
import type { Filter } from './filter.js';
import { expandFuzzy } from './fuzzy.js';
import { runKnn } from './knn-search.js';
import type { Query } from './query.js';
import { buildScorer } from './scorer-builder.js';
import type { ScoringContext, TermWeight, WeightOf } from './scorer-builder.js';
import { NO_MORE_DOCS } from './scorer.js';
import type { Scorer } from './scorer.js';
import { SortedCollector, compareHits, fieldSortValues } from './sort.js';
import type { SortKey, SortValue } from './sort.js';
import { TopKCollector } from './top-k-collector.js';

/** What to run. */
export interface SearchPlan {
  readonly query: Query;
  readonly filter: Filter | null;
  /** Sort keys, or null for the default: by score, ties by index order. */
  readonly sort: readonly SortKey[] | null;
  /** Only hits after this position in sort order (requires `sort`). */
  readonly searchAfter: { readonly values: readonly SortValue[]; readonly id: string } | null;
  /** Hits to keep: from + size. */
  readonly k: number;
  /** Count hits exactly up to this many. */
  readonly countUpTo: number;
  readonly aggs: readonly Aggregation[];
}

/** A collected hit before its stored fields are loaded. */
export interface ScoredDoc {
  /** Global doc number within the snapshot. */
  readonly doc: number;
  readonly score: number;
  /** Sort values then `_id`, when the request sorts. */
  readonly sortValues?: readonly (SortValue | string)[];
}

export interface TopDocs {
  readonly hits: readonly ScoredDoc[];
  readonly total: number;
  /** Whether `total` is exact ("eq") or a lower bound ("gte") because pruning skipped docs. */
  readonly totalRelation: 'eq' | 'gte';
  readonly aggs: Record<string, AggregationResult>;
}

/**
 * Block buffers for the term iterators of every search of this thread (searches run one at a
 * time; one nested in another, as a rewrite may run, releases only its own).
 */
const blockBuffers = new BlockBufferPool();

/** Executes a plan over a snapshot. */
export function executeSearch(snapshot: Snapshot, plan: SearchPlan): TopDocs {
  const scoring: ScoringContext = { weightOf: weights(snapshot), buffers: blockBuffers };
  const query = rewrite(plan.query, snapshot, plan);
  const exhaustive = plan.sort !== null || plan.aggs.length > 0;
  const collector = new TopKCollector(plan.sort === null ? plan.k : 0);
  const sorted = plan.sort === null ? null : new SortedCollector(plan.k, plan.sort);
  const aggs = plan.aggs.length > 0 ? new AggregationCollector(plan.aggs) : null;
  const ctx: CollectContext = { collector, countUpTo: exhaustive ? Infinity : plan.countUpTo };
  let total = 0;

  const mark = blockBuffers.mark;
  try {
    for (const segment of snapshot.segments) {
      if (segment.liveDocs.liveCount === 0) continue;
      // The previous segment's scorers are done with: their block buffers go to this segment's.
      blockBuffers.release(mark);
      const accept = acceptDocs(segment, plan.filter);
      const scorer = buildScorer(query, segment, scoring);
      if (scorer === null) continue;
      if (!exhaustive) {
        if (scorer instanceof DisjunctionScorer) scoreMaxScore(scorer.clauses, scorer.combiner, accept, segment.docBase, ctx);
        else if (scorer instanceof ConjunctionScorer) scoreConjunction(scorer.clauses, scorer.ordered, accept, segment.docBase, ctx);
        else scoreWithBlockMax(scorer, accept, segment.docBase, ctx);
        continue;
      }
      const matched = aggs === null ? null : new GrowableDocs();
      const offer = sorted === null ? null : sortedOffer(sorted, plan, segment, scorer);
      for (let d = scorer.nextDoc(); d !== NO_MORE_DOCS; d = scorer.nextDoc()) {
        if (accept !== null && !accept.isLive(d)) continue;
        total++;
        matched?.push(d);
        if (offer !== null) offer(d);
        else collector.collect(segment.docBase + d, scorer.score());
      }
      if (aggs !== null && matched !== null) aggs.collect(segment.reader, matched.docs, matched.length);
    }
  } finally {
    blockBuffers.release(mark);
  }

  const aggResults = aggs?.results() ?? {};
  if (sorted !== null) {
    const hits = sorted.results().map((h) => ({ doc: h.doc, score: h.score, sortValues: [...h.values, h.id] }));
    return { hits, total, totalRelation: 'eq', aggs: aggResults };
  }
  if (exhaustive) return { hits: collector.results(), total, totalRelation: 'eq', aggs: aggResults };
  if (query.kind === 'match_all' && plan.filter === null) {
    // Every live doc matches: the count is known without visiting the docs pruning skipped.
    return { hits: collector.results(), total: snapshot.liveCount, totalRelation: 'eq', aggs: aggResults };
  }
  const exact = collector.totalHits < plan.countUpTo;
  return { hits: collector.results(), total: collector.totalHits, totalRelation: exact ? 'eq' : 'gte', aggs: aggResults };
}

/**
 * The top `n` docs of one query on a snapshot, best first, with the request's filter: one ranked
 * list of a fused query (rrf, linear blend), which runs each retriever this way and fuses the
 * lists. `doc` is the global doc number (see {@link ScoredDoc}).
 */
export function retrieveTopDocs(snapshot: Snapshot, query: Query, filter: Filter | null, n: number): readonly ScoredDoc[] {
  return executeSearch(snapshot, { query, filter, sort: null, searchAfter: null, k: n, countUpTo: 0, aggs: [] }).hits;
}

/** Offers a segment's docs to the sorted collector; sort columns are resolved once per segment. */
function sortedOffer(sorted: SortedCollector, plan: SearchPlan, segment: SegmentView, scorer: Scorer): (d: number) => void {
  const keys = plan.sort!;
  const needsScore = keys.some((k) => k.by === 'score');
  const readers = keys.map((k) => (k.by === 'field' ? fieldSortValues(segment.reader, k) : null));
  const values: SortValue[] = new Array<SortValue>(keys.length);
  return (d) => {
    const score = needsScore ? scorer.score() : NaN;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      values[i] = k.by === 'score' ? score : k.by === 'doc' ? segment.docBase + d : readers[i]!(d);
    }
    const id = (): string => segment.reader.idOf(d);
    if (plan.searchAfter !== null && compareHits({ doc: -1, score: 0, values, id: id() }, { doc: -1, score: 0, ...plan.searchAfter }, keys) <= 0) return;
    if (!sorted.competitive(values, id)) return;
    sorted.offer({ doc: segment.docBase + d, score, values: [...values], id: id() });
  };
}

/** Live docs, intersected with the filter when there is one; null when every doc is accepted. */
function acceptDocs(segment: SegmentView, filter: Filter | null): AcceptDocs | null {
  const live = segment.liveDocs.liveCount === segment.reader.maxDoc ? null : segment.liveDocs;
  if (filter === null) return live;
  const bits = filterDocs(filter, segment.reader);
  return live === null ? bits : { isLive: (d) => bits.bits[d] === 1 && live.isLive(d) };
}

function weights(snapshot: Snapshot): WeightOf {
  // By field, then term (every segment asks for each query term): no key string built per lookup.
  const byField = new Map<string, Map<string, TermWeight | null>>();
  const compute = (field: string, term: string, boost: number): TermWeight | null => {
    const stats = snapshot.fieldStats(field);
    const df = snapshot.docFreq(field, term);
    return df === 0 || stats.docCount === 0 ? null : { weight: boost * bm25Idf(df, stats.docCount), normInverse: bm25NormCache(stats.sumTotalTermFreq / stats.docCount) };
  };
  return (field, term, boost) => {
    let terms = byField.get(field);
    if (terms === undefined) byField.set(field, (terms = new Map<string, TermWeight | null>()));
    // The boost is part of the key only when it is not 1, the usual case.
    const key = boost === 1 ? term : `${term}\u0000${boost}`;
    let w = terms.get(key);
    if (w === undefined) terms.set(key, (w = compute(field, term, boost)));
    return w;
  };
}

/**
 * Replaces fuzzy queries by the terms they expand to over the whole snapshot, and knn queries by
 * their nearest docs over the whole snapshot (filtered by the plan's filter during the walk).
 */
function rewrite(query: Query, snapshot: Snapshot, plan: Pick<SearchPlan, 'filter' | 'k'>): Query {
  if (!needsRewrite(query)) return query;
  const each = (qs: readonly Query[]): Query[] => qs.map((c) => rewrite(c, snapshot, plan));
  switch (query.kind) {
    case 'fuzzy':
      return expandFuzzy(query, snapshot);
    case 'knn':
      return runKnn(snapshot, query, plan.filter, plan.k);
    case 'sum':
    case 'dis_max':
      return { ...query, clauses: each(query.clauses) };
    case 'bool':
      return { ...query, must: each(query.must), should: each(query.should), mustNot: each(query.mustNot), filter: each(query.filter) };
    default:
      return query;
  }
}

/**
 * Whether a query holds a fuzzy or knn query that {@link rewrite} replaces: most do not, and are
 * used as they are rather than copied (a copy of the tree per search is garbage for the GC).
 */
function needsRewrite(query: Query): boolean {
  switch (query.kind) {
    case 'fuzzy':
    case 'knn':
      return true;
    case 'sum':
    case 'dis_max':
      return query.clauses.some(needsRewrite);
    case 'bool':
      return query.must.some(needsRewrite) || query.should.some(needsRewrite) || query.mustNot.some(needsRewrite) || query.filter.some(needsRewrite);
    default:
      return false;
  }
}

/** A growable list of doc ids. */
class GrowableDocs {
  docs = new Int32Array(1024);
  length = 0;
  push(d: number): void {
    if (this.length === this.docs.length) {
      const next = new Int32Array(this.docs.length * 2);
      next.set(this.docs);
      this.docs = next;
    }
    this.docs[this.length++] = d;
  }
}
