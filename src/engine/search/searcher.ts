/**
 * Runs a parsed query over a snapshot: computes collection statistics once for the whole
 * snapshot (so scores do not depend on how docs are spread over segments), builds per-segment
 * scorers and collects the top hits with dynamic pruning.
 */
import type { Snapshot, SegmentView } from '../segment/snapshot.js';
import { bm25Idf, bm25NormCache } from './bm25.js';
import { scoreMaxScore, scoreWithBlockMax } from './bulk-scorer.js';
import type { CollectContext } from './bulk-scorer.js';
import { ConjunctionScorer } from './conjunction-scorer.js';
import { DisjunctionScorer } from './disjunction-scorer.js';
import { MatchAllScorer } from './match-all-scorer.js';
import type { FieldTermsQuery, Query } from './query.js';
import { disMaxCombiner, sumCombiner } from './score-combiner.js';
import type { Scorer } from './scorer.js';
import { TermScorer } from './term-scorer.js';
import { TopKCollector } from './top-k-collector.js';

/** A hit before its stored fields are loaded. */
export interface ScoredDoc {
  /** Global doc number within the snapshot. */
  readonly doc: number;
  readonly score: number;
}

/** The top hits and the hit count. */
export interface TopDocs {
  readonly hits: readonly ScoredDoc[];
  readonly total: number;
  /** Whether `total` is exact ("eq") or a lower bound ("gte") because pruning skipped docs. */
  readonly totalRelation: 'eq' | 'gte';
}

/** Per-term scoring constants, computed once per search over the whole snapshot. */
interface TermWeight {
  readonly weight: number;
  readonly normInverse: Float64Array;
}

/** Executes `query` over `snapshot` and returns the best `k` docs. */
export function searchTopDocs(snapshot: Snapshot, query: Query, k: number, countUpTo: number): TopDocs {
  const collector = new TopKCollector(k);
  const ctx: CollectContext = { collector, countUpTo };
  const weights = new Map<string, TermWeight | null>();
  const normCaches = new Map<string, Float64Array>();
  const weightOf = (field: string, term: string, boost: number): TermWeight | null => {
    const key = `${field}\u0000${term}\u0000${boost}`;
    let w = weights.get(key);
    if (w !== undefined) return w;
    const stats = snapshot.fieldStats(field);
    const df = snapshot.docFreq(field, term);
    if (df === 0 || stats.docCount === 0) w = null;
    else {
      let cache = normCaches.get(field);
      if (cache === undefined) {
        cache = bm25NormCache(stats.sumTotalTermFreq / stats.docCount);
        normCaches.set(field, cache);
      }
      w = { weight: boost * bm25Idf(df, stats.docCount), normInverse: cache };
    }
    weights.set(key, w);
    return w;
  };

  for (const segment of snapshot.segments) {
    if (segment.liveDocs.liveCount === 0) continue;
    const live = segment.liveDocs.liveCount === segment.reader.maxDoc ? null : segment.liveDocs;
    const scorer = buildScorer(query, segment, weightOf, true);
    if (scorer === null) continue;
    if (scorer instanceof DisjunctionScorer) {
      scoreMaxScore(scorer.clauses, scorer.combiner, live, segment.docBase, ctx);
    } else {
      scoreWithBlockMax(scorer, live, segment.docBase, ctx);
    }
  }
  if (query.kind === 'match_all') {
    // Every live doc matches: the count is known without visiting the docs pruning skipped.
    return { hits: collector.results(), total: snapshot.liveCount, totalRelation: 'eq' };
  }
  const exact = collector.totalHits < countUpTo;
  return { hits: collector.results(), total: collector.totalHits, totalRelation: exact ? 'eq' : 'gte' };
}

type WeightOf = (field: string, term: string, boost: number) => TermWeight | null;

function buildScorer(query: Query, segment: SegmentView, weightOf: WeightOf, topLevel: boolean): Scorer | null {
  switch (query.kind) {
    case 'match_all':
      return new MatchAllScorer(segment.reader.maxDoc, query.boost);
    case 'terms':
      return buildTermsScorer(query, segment, weightOf, topLevel);
    case 'sum':
    case 'dis_max': {
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
        const s = buildScorer(clause, segment, weightOf, false);
        if (s !== null) clauses.push(s);
      }
      if (clauses.length === 0) return null;
      if (clauses.length === 1 && query.kind === 'sum') return clauses[0];
      return new DisjunctionScorer(clauses, combiner);
    }
  }
}

function buildTermsScorer(query: FieldTermsQuery, segment: SegmentView, weightOf: WeightOf, _topLevel: boolean): Scorer | null {
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
