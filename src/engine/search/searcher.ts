/**
 * Runs a search plan over a snapshot: computes collection statistics once for the whole snapshot
 * (so scores do not depend on how docs are spread over segments), expands fuzzy queries against
 * the whole term dictionary, evaluates filters into per-segment doc sets, builds per-segment
 * scorers, and collects hits:
 * - by score, with dynamic pruning, when nothing forces visiting every match;
 * - exhaustively when the request sorts by fields, pages with `search_after` or aggregates.
 */
import type { Snapshot, SegmentView } from '../segment/snapshot.js';
import { AggregationCollector } from './aggregations.js';
import type { Aggregation, AggregationResult } from './aggregations.js';
import { bm25Idf, bm25NormCache } from './bm25.js';
import { BoolScorer } from './bool-scorer.js';
import { scoreMaxScore, scoreWithBlockMax } from './bulk-scorer.js';
import type { CollectContext } from './bulk-scorer.js';
import { ConjunctionScorer } from './conjunction-scorer.js';
import { ConstantScoreScorer } from './constant-score-scorer.js';
import { DisjunctionScorer } from './disjunction-scorer.js';
import { DocBits } from './doc-set.js';
import type { AcceptDocs } from './doc-set.js';
import { filterDocs } from './filter.js';
import type { Filter } from './filter.js';
import { expandFuzzy } from './fuzzy.js';
import { PhraseScorer } from './phrase-scorer.js';
import type { FieldTermsQuery, PhraseQuery, Query } from './query.js';
import { disMaxCombiner, groupedDisMaxCombiner, sumCombiner } from './score-combiner.js';
import { NO_MORE_DOCS } from './scorer.js';
import type { Scorer } from './scorer.js';
import { SortedCollector, compareHits, fieldSortValues } from './sort.js';
import type { SortKey, SortValue } from './sort.js';
import { TermScorer } from './term-scorer.js';
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

/** Per-term scoring constants, computed once per search over the whole snapshot. */
interface TermWeight {
  readonly weight: number;
  readonly normInverse: Float64Array;
}

type WeightOf = (field: string, term: string, boost: number) => TermWeight | null;

/** Executes a plan over a snapshot. */
export function executeSearch(snapshot: Snapshot, plan: SearchPlan): TopDocs {
  const weightOf = weights(snapshot);
  const query = rewrite(plan.query, snapshot);
  const exhaustive = plan.sort !== null || plan.aggs.length > 0;
  const collector = new TopKCollector(plan.sort === null ? plan.k : 0);
  const sorted = plan.sort === null ? null : new SortedCollector(plan.k, plan.sort);
  const aggs = plan.aggs.length > 0 ? new AggregationCollector(plan.aggs) : null;
  const ctx: CollectContext = { collector, countUpTo: exhaustive ? Infinity : plan.countUpTo };
  let total = 0;

  for (const segment of snapshot.segments) {
    if (segment.liveDocs.liveCount === 0) continue;
    const accept = acceptDocs(segment, plan.filter);
    const scorer = buildScorer(query, segment, weightOf);
    if (scorer === null) continue;
    if (!exhaustive) {
      if (scorer instanceof DisjunctionScorer) scoreMaxScore(scorer.clauses, scorer.combiner, accept, segment.docBase, ctx);
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
  const cache = new Map<string, TermWeight | null>();
  return (field, term, boost) => {
    const key = `${field}\u0000${term}\u0000${boost}`;
    let w = cache.get(key);
    if (w !== undefined) return w;
    const stats = snapshot.fieldStats(field);
    const df = snapshot.docFreq(field, term);
    w = df === 0 || stats.docCount === 0 ? null : { weight: boost * bm25Idf(df, stats.docCount), normInverse: bm25NormCache(stats.sumTotalTermFreq / stats.docCount) };
    cache.set(key, w);
    return w;
  };
}

/** Replaces fuzzy queries by the terms they expand to over the whole snapshot. */
function rewrite(query: Query, snapshot: Snapshot): Query {
  switch (query.kind) {
    case 'fuzzy':
      return expandFuzzy(query, snapshot);
    case 'sum':
    case 'dis_max':
      return { ...query, clauses: query.clauses.map((c) => rewrite(c, snapshot)) };
    case 'bool':
      return {
        ...query,
        must: query.must.map((c) => rewrite(c, snapshot)),
        should: query.should.map((c) => rewrite(c, snapshot)),
        mustNot: query.mustNot.map((c) => rewrite(c, snapshot)),
        filter: query.filter.map((c) => rewrite(c, snapshot)),
      };
    default:
      return query;
  }
}

function buildScorer(query: Query, segment: SegmentView, weightOf: WeightOf): Scorer | null {
  switch (query.kind) {
    case 'match_all':
      return ConstantScoreScorer.all(segment.reader.maxDoc, query.boost);
    case 'terms':
      return buildTermsScorer(query, segment, weightOf);
    case 'dis_max':
      if (query.clauses.every((c) => c.kind === 'terms' && c.operator === 'or')) {
        return buildGroupedDisMax(query.clauses as readonly FieldTermsQuery[], query.tieBreaker, segment, weightOf);
      }
      return buildCompound(query, segment, weightOf);
    case 'sum':
      return buildCompound(query, segment, weightOf);
    case 'bool':
      return buildBoolScorer(query, segment, weightOf);
    case 'phrase':
      return buildPhraseScorer(query, segment, weightOf);
    case 'prefix':
      return buildPrefixScorer(query.field, query.value, query.boost, segment);
    case 'fuzzy':
      throw new Error('fuzzy queries are rewritten before scoring');
  }
}

/** A sum or dis_max of whole clause scorers ("or" term groups of a sum are flattened to terms). */
function buildCompound(query: Extract<Query, { kind: 'sum' | 'dis_max' }>, segment: SegmentView, weightOf: WeightOf): Scorer | null {
  const combiner = query.kind === 'sum' ? sumCombiner : disMaxCombiner(query.tieBreaker);
  const clauses: Scorer[] = [];
  for (const clause of query.clauses) {
    // A sum of "or" term groups is flattened into one sum of terms: more room for pruning.
    if (query.kind === 'sum' && clause.kind === 'terms' && clause.operator === 'or') {
      for (const term of clause.terms) {
        const s = termScorer(clause.field, term, clause.boost, segment, weightOf);
        if (s !== null) clauses.push(s);
      }
      continue;
    }
    const s = buildScorer(clause, segment, weightOf);
    if (s !== null) clauses.push(s);
  }
  if (clauses.length === 0) return null;
  if (clauses.length === 1 && query.kind === 'sum') return clauses[0];
  return new DisjunctionScorer(clauses, combiner);
}

/** best_fields over "or" term groups, flattened to one clause per term (see groupedDisMaxCombiner). */
function buildGroupedDisMax(groups: readonly FieldTermsQuery[], tieBreaker: number, segment: SegmentView, weightOf: WeightOf): Scorer | null {
  const clauses: Scorer[] = [];
  const groupOf: number[] = [];
  groups.forEach((group, g) => {
    for (const term of group.terms) {
      const s = termScorer(group.field, term, group.boost, segment, weightOf);
      if (s === null) continue;
      clauses.push(s);
      groupOf.push(g);
    }
  });
  if (clauses.length === 0) return null;
  if (clauses.length === 1) return clauses[0];
  return new DisjunctionScorer(clauses, groupedDisMaxCombiner(Int32Array.from(groupOf), groups.length, tieBreaker));
}

function buildBoolScorer(query: Extract<Query, { kind: 'bool' }>, segment: SegmentView, weightOf: WeightOf): Scorer | null {
  const build = (qs: readonly Query[]): (Scorer | null)[] => qs.map((q) => buildScorer(q, segment, weightOf));
  const must = build(query.must);
  const filter = build(query.filter);
  if (must.includes(null) || filter.includes(null)) return null;
  const should = build(query.should).filter((s): s is Scorer => s !== null);
  const mustNot = build(query.mustNot).filter((s): s is Scorer => s !== null);
  if (should.length < query.minimumShouldMatch) return null;
  const required = must.length + filter.length;
  // Only must_not clauses (or nothing): every doc is a candidate, scored 0.
  if (required === 0 && should.length === 0) filter.push(ConstantScoreScorer.all(segment.reader.maxDoc, 0));
  if (required === 0 && mustNot.length === 0 && query.minimumShouldMatch <= 1 && should.length > 1 && query.boost === 1) {
    // A plain disjunction: let MaxScore prune it.
    return new DisjunctionScorer(should, sumCombiner);
  }
  const scorer = new BoolScorer(must as Scorer[], filter as Scorer[], should, mustNot, query.minimumShouldMatch);
  return query.boost === 1 ? scorer : new BoostedScorer(scorer, query.boost);
}

function buildPhraseScorer(query: PhraseQuery, segment: SegmentView, weightOf: WeightOf): Scorer | null {
  if (query.terms.length === 0) return null;
  const norms = segment.reader.fieldNorms(query.field);
  if (norms === undefined) return null;
  const postings = [];
  let weight = 0;
  // An exact phrase occurs at most as often as its rarest term; a sloppy sweep finds at most one
  // window per position it visits.
  let maxFreq = query.slop === 0 ? Infinity : 0;
  let minNorm = 0;
  let normInverse: Float64Array | null = null;
  for (const term of query.terms) {
    const info = segment.reader.termInfo(query.field, term);
    const w = weightOf(query.field, term, query.boost);
    if (info === undefined || w === null) return null;
    postings.push(segment.reader.postings(info));
    weight += w.weight;
    normInverse = w.normInverse;
    maxFreq = query.slop === 0 ? Math.min(maxFreq, info.maxFreq) : maxFreq + info.maxFreq;
    minNorm = Math.max(minNorm, info.minNorm);
  }
  return new PhraseScorer(postings, query.positions, query.slop, norms, weight, normInverse!, maxFreq, minNorm);
}

function buildPrefixScorer(field: string, prefix: string, boost: number, segment: SegmentView): Scorer | null {
  const bits = new DocBits(segment.reader.maxDoc);
  let cost = 0;
  for (const entry of segment.reader.terms.terms(field, prefix)) {
    if (!entry.term.startsWith(prefix)) break;
    const it = segment.reader.postings(entry);
    for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) bits.bits[d] = 1;
    cost += entry.docFreq;
  }
  return cost === 0 ? null : new ConstantScoreScorer(bits, segment.reader.maxDoc, boost, cost);
}

function buildTermsScorer(query: FieldTermsQuery, segment: SegmentView, weightOf: WeightOf): Scorer | null {
  const scorers: Scorer[] = [];
  for (const term of query.terms) {
    const s = termScorer(query.field, term, query.boost, segment, weightOf);
    if (s === null) {
      if (query.operator === 'and') return null;
      continue;
    }
    scorers.push(s);
  }
  if (scorers.length === 0) return null;
  if (scorers.length === 1) return scorers[0];
  return query.operator === 'and' ? new ConjunctionScorer(scorers) : new DisjunctionScorer(scorers, sumCombiner);
}

function termScorer(field: string, term: string, boost: number, segment: SegmentView, weightOf: WeightOf): Scorer | null {
  const info = segment.reader.termInfo(field, term);
  if (info === undefined) return null;
  const w = weightOf(field, term, boost);
  const norms = segment.reader.fieldNorms(field);
  if (w === null || norms === undefined) return null;
  return new TermScorer(segment.reader.postings(info), norms, w.weight, w.normInverse, info.maxFreq, info.minNorm);
}

/** Multiplies a scorer's scores (and bounds) by a boost. */
class BoostedScorer implements Scorer {
  constructor(
    private readonly inner: Scorer,
    private readonly boost: number,
  ) {}
  get doc(): number {
    return this.inner.doc;
  }
  get cost(): number {
    return this.inner.cost;
  }
  get maxScore(): number {
    return this.inner.maxScore * this.boost;
  }
  nextDoc(): number {
    return this.inner.nextDoc();
  }
  advance(target: number): number {
    return this.inner.advance(target);
  }
  score(): number {
    return this.inner.score() * this.boost;
  }
  advanceShallow(target: number): number {
    return this.inner.advanceShallow(target);
  }
  maxScoreUpTo(upTo: number): number {
    return this.inner.maxScoreUpTo(upTo) * this.boost;
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
