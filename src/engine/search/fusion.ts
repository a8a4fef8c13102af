/**
 * Hybrid search: several retrieve queries (lexical, `knn`, `semantic`) each run on the same
 * snapshot with the request's filters, and their ranked lists are fused into one.
 *
 * - `rrf` — reciprocal-rank fusion, Nixiesearch's shape: `{"rrf": {"retrieve": [<query>, ...],
 *   "k": 60, "rank_window_size": <from + size>}}`. A doc's score is the sum over the lists it is in
 *   of `1 / (k + rank)`, ranks counted from 1. Only ranks count, so lists whose scores live on
 *   different scales (BM25, cosine) fuse without tuning. `queries` is read as `retrieve` (several
 *   Nixiesearch docs write it).
 * - `linear` — a weighted sum of min-max-normalised scores, the shape of Elasticsearch's `linear`
 *   retriever with Nixiesearch's `retrieve` key: `{"linear": {"retrieve": [<query> | {"query":
 *   <query>, "weight": 2, "normalizer": "minmax" | "none"}, ...], "rank_window_size": <from +
 *   size>}}`. Each list's scores are mapped to [0, 1] by its own min and max (a list whose scores
 *   are all equal maps to 1), multiplied by the weight (default 1) and summed; a doc missing from a
 *   list gets 0 from it. Scores keep their meaning, so a strong lexical match can outrank a middling
 *   semantic one, which RRF cannot express.
 *
 * Each retriever keeps its best `rank_window_size` docs; the fused list is that window, from which
 * `from`/`size` page, and over which `aggs` count (as Elasticsearch's retrievers do); `total` is the
 * window's size. Sorting, `search_after` and nesting a fusion inside another query are refused.
 */
import type { Snapshot } from '../segment/snapshot.js';
import { AggregationCollector } from './aggregations.js';
import type { Query } from './query.js';
import { invalid } from './query.js';
import { retrieveTopDocs } from './searcher.js';
import type { ScoredDoc, SearchPlan, TopDocs } from './searcher.js';

/** The RRF rank constant's default (Nixiesearch, Elasticsearch and the original paper use 60). */
export const DEFAULT_RRF_K = 60;

/** One retriever of a fusion: its query and, for `linear`, its weight and normaliser. */
export interface Retriever {
  readonly query: Query;
  readonly weight: number;
  readonly normalizer: 'minmax' | 'none';
}

/** A parsed `rrf` or `linear` query. */
export interface FusionQuery {
  readonly kind: 'rrf' | 'linear';
  readonly retrievers: readonly Retriever[];
  /** RRF's rank constant (unused by `linear`). */
  readonly k: number;
  /** Docs each retriever contributes; null = the request's `from + size`. */
  readonly rankWindowSize: number | null;
}

/** The fusion types a request's top-level `query` may name. */
export const FUSION_TYPES = ['rrf', 'linear'] as const;

/**
 * Parses `{"rrf": ...}` or `{"linear": ...}`; null when `json` is another query. `parseRetriever`
 * parses one retrieve query (the request's query parser, at the given path).
 */
export function parseFusion(json: unknown, parseRetriever: (json: unknown, path: string) => Query): FusionQuery | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const keys = Object.keys(json);
  if (keys.length !== 1 || !(FUSION_TYPES as readonly string[]).includes(keys[0])) return null;
  const kind = keys[0] as FusionQuery['kind'];
  const path = `query.${kind}`;
  const body = (json as Record<string, unknown>)[kind];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid(path, `expected an object with "retrieve", got ${typeName(body)}`);
  const o = body as Record<string, unknown>;
  const allowed = kind === 'rrf' ? ['retrieve', 'queries', 'k', 'rank_window_size'] : ['retrieve', 'rank_window_size'];
  for (const key of Object.keys(o)) if (!allowed.includes(key)) throw invalid(`${path}.${key}`, `unknown key; expected one of ${allowed.join(', ')}`);
  const listKey = o.retrieve === undefined && kind === 'rrf' && o.queries !== undefined ? 'queries' : 'retrieve';
  const list = o[listKey];
  if (!Array.isArray(list) || list.length === 0) throw invalid(`${path}.${listKey}`, `expected a non-empty array of queries, got ${typeName(list)}`);
  const retrievers = list.map((item: unknown, i) => {
    const at = `${path}.${listKey}[${i}]`;
    if (kind === 'linear' && typeof item === 'object' && item !== null && !Array.isArray(item) && 'query' in item) return weighted(item, at, parseRetriever);
    if (isFusion(item)) throw invalid(at, 'a fusion query cannot be a retriever of another fusion');
    return { query: parseRetriever(item, at), weight: 1, normalizer: 'minmax' as const };
  });
  return {
    kind,
    retrievers,
    k: kind === 'rrf' ? positiveNumber(o.k, `${path}.k`) ?? DEFAULT_RRF_K : DEFAULT_RRF_K,
    rankWindowSize: positiveInteger(o.rank_window_size, `${path}.rank_window_size`),
  };
}

function weighted(o: Record<string, unknown>, path: string, parseRetriever: (json: unknown, path: string) => Query): Retriever {
  for (const key of Object.keys(o)) if (!['query', 'weight', 'normalizer'].includes(key)) throw invalid(`${path}.${key}`, 'unknown key; expected one of query, weight, normalizer');
  if (isFusion(o.query)) throw invalid(`${path}.query`, 'a fusion query cannot be a retriever of another fusion');
  const normalizer = o.normalizer ?? 'minmax';
  if (normalizer !== 'minmax' && normalizer !== 'none') throw invalid(`${path}.normalizer`, `expected "minmax" or "none", got ${JSON.stringify(normalizer)}`);
  const weight = o.weight === undefined ? 1 : o.weight;
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) throw invalid(`${path}.weight`, `expected a non-negative number, got ${typeName(weight)}`);
  return { query: parseRetriever(o.query, `${path}.query`), weight, normalizer };
}

/** Whether `json` is a `{"rrf": ...}` or `{"linear": ...}` query. */
export function isFusion(json: unknown): boolean {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const keys = Object.keys(json);
  return keys.length === 1 && (FUSION_TYPES as readonly string[]).includes(keys[0]);
}

/**
 * Runs each retriever of `fusion` on `snapshot` with `plan`'s filter, fuses the ranked lists and
 * collects `plan.aggs` over the fused window. `plan.k` (from + size) hits come back, best first.
 */
export function executeFusion(snapshot: Snapshot, plan: SearchPlan, fusion: FusionQuery): TopDocs {
  const window = fusion.rankWindowSize ?? plan.k;
  // `size: 0` with no window asks for nothing to fuse (as Elasticsearch: the window is the result).
  if (window === 0) return { hits: [], total: 0, totalRelation: 'eq', aggs: plan.aggs.length === 0 ? {} : aggregate(snapshot, plan, []) };
  const lists = fusion.retrievers.map((r) => retrieveTopDocs(snapshot, r.query, plan.filter, window));
  const fused = fusion.kind === 'rrf' ? reciprocalRanks(lists, fusion.k) : linearBlend(lists, fusion.retrievers);
  const hits: ScoredDoc[] = [...fused].map(([doc, score]) => ({ doc, score }));
  // Best first; equal scores in index order, so pages are stable.
  hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
  const aggs = plan.aggs.length === 0 ? {} : aggregate(snapshot, plan, hits);
  return { hits: hits.slice(0, plan.k), total: hits.length, totalRelation: 'eq', aggs };
}

/** Sum of `1 / (k + rank)` over the lists a doc is in. */
function reciprocalRanks(lists: readonly (readonly ScoredDoc[])[], k: number): Map<number, number> {
  const scores = new Map<number, number>();
  for (const list of lists) list.forEach((h, i) => scores.set(h.doc, (scores.get(h.doc) ?? 0) + 1 / (k + i + 1)));
  return scores;
}

/** Sum of each list's weighted, min-max-normalised score. */
function linearBlend(lists: readonly (readonly ScoredDoc[])[], retrievers: readonly Retriever[]): Map<number, number> {
  const scores = new Map<number, number>();
  lists.forEach((list, i) => {
    const { weight, normalizer } = retrievers[i];
    let min = Infinity;
    let max = -Infinity;
    for (const h of list) {
      min = Math.min(min, h.score);
      max = Math.max(max, h.score);
    }
    const range = max - min;
    for (const h of list) {
      const normalized = normalizer === 'none' ? h.score : range > 0 ? (h.score - min) / range : 1;
      scores.set(h.doc, (scores.get(h.doc) ?? 0) + weight * normalized);
    }
  });
  return scores;
}

/** Aggregations over the fused window: its docs grouped by segment, in doc order. */
function aggregate(snapshot: Snapshot, plan: SearchPlan, hits: readonly ScoredDoc[]): TopDocs['aggs'] {
  const collector = new AggregationCollector(plan.aggs);
  const docs = Int32Array.from(hits, (h) => h.doc).sort();
  let at = 0;
  for (const segment of snapshot.segments) {
    const end = segment.docBase + segment.reader.maxDoc;
    const start = at;
    while (at < docs.length && docs[at] < end) at++;
    if (at === start) continue;
    collector.collect(segment.reader, docs.subarray(start, at).map((d) => d - segment.docBase), at - start);
  }
  return collector.results();
}

function positiveNumber(v: unknown, path: string): number | null {
  if (v === undefined) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw invalid(path, `expected a positive number, got ${typeName(v)}`);
  return v;
}

function positiveInteger(v: unknown, path: string): number | null {
  if (v === undefined) return null;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0 || v > 10_000) throw invalid(path, `expected an integer from 1 to 10000, got ${JSON.stringify(v)}`);
  return v;
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}
