/**
 * The search request of SPEC §4.3 end to end: parsed and validated against the mapping into a
 * {@link SearchPlan}, run on a snapshot, and turned into the response (stored fields, `_sort`,
 * `_highlight`, aggregations).
 */
import { getAnalyzer } from '../analysis/analyzers.js';
import { ErrorCode, YarrowError } from '../errors.js';
import type { Mapping } from '../schema/mapping.js';
import type { Snapshot } from '../segment/snapshot.js';
import { parseAggregations } from './aggregations.js';
import type { AggregationResult } from './aggregations.js';
import { parseFilters } from './filter.js';
import { executeFusion, parseFusion } from './fusion.js';
import type { FusionQuery } from './fusion.js';
import { parseHighlight } from './highlight-request.js';
import type { Highlighter } from './highlight-request.js';
import { parseQuery } from './query.js';
import { parseQueryString } from './query-string.js';
import { executeSearch } from './searcher.js';
import type { SearchPlan } from './searcher.js';
import { parseSearchAfter, parseSort } from './sort.js';

/** A search request (SPEC §4.3, Nixiesearch-compatible). */
export interface SearchRequest {
  readonly query?: unknown;
  readonly size?: number;
  readonly from?: number;
  /** true: count every hit; false/number: count exactly up to that many (default 1000). */
  readonly track_total_hits?: boolean | number;
  /** Stored fields to return (`*` wildcards allowed); default all. `_id` and `_score` always come. */
  readonly fields?: readonly string[];
  /** Nixiesearch filters: `{ include?: <filter>, exclude?: <filter> }`. */
  readonly filters?: unknown;
  /** Aggregations by name: `{ <name>: { term: { field, size } } | { range: { field, ranges } } }`. */
  readonly aggs?: unknown;
  /** Sort keys: `"_score"`, `"_doc"`, `"<field>"` or `{ <field>: { order, missing } }`. */
  readonly sort?: unknown;
  /** The `_sort` array of the last hit of the previous page. */
  readonly search_after?: unknown;
  /** Simple query syntax (`GET /_search?q=`), used when `query` is absent; searches every text field. */
  readonly q?: string;
  /** Highlighting: `{ fields: [...], fragment_size?, number_of_fragments?, pre_tag?, post_tag? }`. */
  readonly highlight?: unknown;
}

/** One hit: id, score and stored fields. */
export interface SearchHit {
  readonly _id: string;
  readonly _score: number;
  readonly [field: string]: unknown;
}

export interface SearchResponse {
  readonly took: number;
  readonly total: number;
  /** "eq" when total is exact, "gte" when it is a lower bound. */
  readonly total_relation: 'eq' | 'gte';
  readonly hits: readonly SearchHit[];
  /** Aggregation results by name, when the request asked for any. */
  readonly aggs?: Readonly<Record<string, AggregationResult>>;
}

/**
 * The keys a search request may have: Nixiesearch 0.8's (`query`, `filters`, `size`, `fields`,
 * `aggs`, `sort`) and Yarrow's additions. Any other key is refused naming it, as 0.8 does
 * (`forbidExtraFields`), so a misspelt key never silently changes the results.
 */
export const SEARCH_REQUEST_KEYS: readonly string[] = ['query', 'filters', 'size', 'from', 'fields', 'aggs', 'sort', 'track_total_hits', 'search_after', 'q', 'highlight'];

const DEFAULT_TRACK_TOTAL_HITS = 1000;
const MAX_RESULT_WINDOW = 10_000;

/** A request checked against the mapping, ready to run on any snapshot. */
export interface PreparedSearch {
  readonly plan: SearchPlan;
  readonly from: number;
  readonly project: Projection;
  readonly highlighter: Highlighter | null;
  /** An `rrf` / `linear` query (fusion.ts): its retrievers run instead of `plan.query`. */
  readonly fusion?: FusionQuery;
}

/** Parses and validates a request; throws YarrowError invalid_query naming what is wrong. */
export function prepareSearch(request: SearchRequest, mapping: Mapping): PreparedSearch {
  for (const key of Object.keys(request)) {
    if (!SEARCH_REQUEST_KEYS.includes(key)) {
      throw new YarrowError(ErrorCode.invalidQuery, `${key}: unknown key of the search request; expected one of ${SEARCH_REQUEST_KEYS.join(', ')}`, { path: key, field: key });
    }
  }
  const size = intOption(request.size, 10, 'size');
  const from = intOption(request.from, 0, 'from');
  if (from + size > MAX_RESULT_WINDOW) {
    throw new YarrowError(ErrorCode.invalidQuery, `from + size must be <= ${MAX_RESULT_WINDOW} (got ${from + size}); use search_after for deep paging`);
  }
  const track = request.track_total_hits;
  const countUpTo = track === true ? Infinity : track === false ? 0 : track ?? DEFAULT_TRACK_TOTAL_HITS;
  const queryJson =
    request.query === undefined && request.q !== undefined
      ? parseQueryString(request.q, mapping.fields.filter((f) => f.analyzer !== null).map((f) => f.name))
      : request.query;
  const fusion = parseFusion(queryJson, (json, path) => parseQuery(json, mapping, getAnalyzer, path));
  if (fusion !== null && (request.sort !== undefined || request.search_after !== undefined)) {
    throw new YarrowError(ErrorCode.invalidQuery, `query.${fusion.kind}: cannot be combined with sort or search_after (fused scores are the order)`);
  }
  // A fusion's retrievers are its query for highlighting: each one's matched terms are marked.
  const query = fusion === null ? parseQuery(queryJson, mapping, getAnalyzer) : { kind: 'sum' as const, clauses: fusion.retrievers.map((r) => r.query), tieBreaker: 0 };
  let sort = request.sort === undefined ? null : parseSort(request.sort, mapping);
  // Deep paging needs a total order: by score (then _id) unless the request sorts.
  if (request.search_after !== undefined && sort === null) sort = parseSort(['_score'], mapping);
  const plan: SearchPlan = {
    query,
    filter: parseFilters(request.filters, mapping),
    sort,
    searchAfter: request.search_after === undefined || sort === null ? null : parseSearchAfter(request.search_after, sort),
    k: from + size,
    countUpTo,
    aggs: parseAggregations(request.aggs, mapping),
  };
  const prepared = { plan, from, project: fieldProjection(request.fields), highlighter: parseHighlight(request.highlight, mapping, query) };
  return fusion === null ? prepared : { ...prepared, fusion };
}

/** Runs a prepared request on a snapshot (which the caller holds) and builds the response. */
export function runSearch(snapshot: Snapshot, prepared: PreparedSearch, started: number): SearchResponse {
  const { plan, from, project, highlighter } = prepared;
  const top = prepared.fusion === undefined ? executeSearch(snapshot, plan) : executeFusion(snapshot, plan, prepared.fusion);
  const hits = top.hits.slice(from).map((h) => {
    let hit = loadHit(snapshot, h.doc, h.score, project);
    if (highlighter !== null) hit = { ...hit, _highlight: highlighter(storedOf(snapshot, h.doc)) };
    return h.sortValues === undefined ? hit : { ...hit, _sort: h.sortValues };
  });
  const response: SearchResponse = { took: Math.round(performance.now() - started), total: top.total, total_relation: top.totalRelation, hits };
  return plan.aggs.length > 0 ? { ...response, aggs: top.aggs } : response;
}

/** Which stored fields a hit returns: null = only `_id`, undefined = all, else a name predicate. */
type Projection = ((name: string) => boolean) | null | undefined;

function fieldProjection(fields: readonly string[] | undefined): Projection {
  if (fields === undefined) return undefined;
  if (!Array.isArray(fields) || !fields.every((f) => typeof f === 'string')) {
    throw new YarrowError(ErrorCode.invalidQuery, `fields: expected an array of field names`);
  }
  const wanted = fields.filter((f) => f !== '_id' && f !== '_score');
  if (wanted.length === 0) return null;
  const patterns = wanted.map((f) => new RegExp(`^${f.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`));
  return (name) => patterns.some((p) => p.test(name));
}

function storedOf(snapshot: Snapshot, doc: number): Record<string, unknown> {
  const seg = segmentOf(snapshot, doc);
  return seg.reader.stored.get(doc - seg.docBase);
}

function segmentOf(snapshot: Snapshot, doc: number): Snapshot['segments'][number] {
  const segs = snapshot.segments;
  let lo = 0;
  let hi = segs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (segs[mid].docBase <= doc) lo = mid;
    else hi = mid - 1;
  }
  return segs[lo];
}

function loadHit(snapshot: Snapshot, doc: number, score: number, project: Projection): SearchHit {
  const seg = segmentOf(snapshot, doc);
  if (project === null) return { _id: seg.reader.idOf(doc - seg.docBase), _score: score };
  const { _id, ...stored } = seg.reader.stored.get(doc - seg.docBase);
  const hit: Record<string, unknown> = { _id: String(_id), _score: score };
  for (const [name, value] of Object.entries(stored)) if (project === undefined || project(name)) hit[name] = value;
  return hit as SearchHit;
}

function intOption(v: unknown, dflt: number, name: string): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw new YarrowError(ErrorCode.invalidQuery, `${name}: expected a non-negative integer, got ${JSON.stringify(v)}`);
  }
  return v;
}
