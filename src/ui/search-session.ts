/**
 * Loads everything one page state needs from the server — the index list, the index's mapping,
 * the range buckets of its numeric facets, the page of hits and the facet counts — into a
 * {@link View} that the components only render. It remembers what does not change between searches
 * (index list, mappings, range buckets) and where each page of a search starts (`search_after`
 * cursors), so paging forward costs one request and a page opened from a URL costs one more.
 */
import { ApiError } from './api.js';
import type { ApiClient, Bucket, SearchResult } from './api.js';
import { rangeBuckets } from './facet-ranges.js';
import { indexSchema } from './index-schema.js';
import type { IndexSchema } from './index-schema.js';
import { facetCountBodies, hitsBody, PAGE_SIZE, seekBody } from './search-request.js';
import type { RangeBuckets } from './search-request.js';
import { resultKey } from './url-state.js';
import type { PageState } from './url-state.js';

/** The server's answer window: `from + size` above this is refused, so seeks go in steps. */
const MAX_WINDOW = 10_000;

/** {@link SearchSession.cursorFor}'s answer when the page starts after the last hit. */
const PAST_END = Symbol('past the end');

/** What the page shows for one state. */
export interface View {
  /** The state as loaded: `index` filled in when the URL named none. */
  readonly state: PageState;
  readonly indexes: readonly string[];
  readonly schema: IndexSchema | null;
  readonly ranges: RangeBuckets;
  readonly result: SearchResult | null;
  /** Facet buckets by field: term values or range buckets with their counts. */
  readonly facets: Readonly<Record<string, readonly Bucket[]>>;
  /** True when there is a page after this one. */
  readonly hasNext: boolean;
  /** A readable message when something failed; the rest of the view holds what did load. */
  readonly error: string | null;
}

function message(e: unknown): string {
  if (e instanceof ApiError) return e.status === 0 ? e.message : `${e.message} (HTTP ${e.status}${e.type === 'http' ? '' : `, ${e.type}`})`;
  return `Something went wrong in the page: ${(e as Error).message}`;
}

/** Loads views; one per page (it caches what it learns). */
export class SearchSession {
  private indexes: string[] | null = null;
  private readonly schemas = new Map<string, IndexSchema>();
  private readonly ranges = new Map<string, RangeBuckets>();
  /** Per search (state without page): the `search_after` at which each page starts. */
  private readonly cursors = new Map<string, Map<number, unknown>>();

  /** Loads the view of `state`. Rejects only with an AbortError (when `signal` aborts). */
  async load(state: PageState, api: ApiClient, signal?: AbortSignal): Promise<View> {
    let view: View = { state, indexes: [], schema: null, ranges: {}, result: null, facets: {}, hasNext: false, error: null };
    try {
      this.indexes ??= await api.listIndexes();
      view = { ...view, indexes: this.indexes };
      if (this.indexes.length === 0) return { ...view, error: 'This server serves no index: add one to the schema section of its config.' };
      const index = state.index ?? this.indexes[0];
      view = { ...view, state: { ...state, index } };
      if (!this.indexes.includes(index)) {
        return { ...view, error: `There is no index "${index}" on this server. Pick one of: ${this.indexes.join(', ')}.` };
      }
      const schema = await this.schemaOf(index, api);
      const ranges = await this.rangesOf(schema, api, signal);
      view = { ...view, schema, ranges };
      const loaded = view.state;
      const after = await this.cursorFor(loaded, schema, api, signal);
      if (after === PAST_END) return { ...view, result: { took: 0, total: 0, total_relation: 'eq', hits: [] }, error: `Page ${loaded.page} is past the last hit of this search.` };
      const [result, ...counts] = await Promise.all([
        api.search(index, hitsBody(loaded, schema, ranges, after), signal),
        ...facetCountBodies(loaded, schema, ranges).map(async ({ field, body }) => ({ field, r: await api.search(index, body, signal) })),
      ]);
      const facets: Record<string, readonly Bucket[]> = {};
      for (const [name, agg] of Object.entries(result.aggs ?? {})) facets[name] = agg.buckets;
      for (const { field, r } of counts) facets[field] = r.aggs?.[field]?.buckets ?? [];
      const full = result.hits.length === PAGE_SIZE;
      const last = result.hits[result.hits.length - 1] as SearchResult['hits'][number] | undefined;
      if (full && last?._sort !== undefined) this.pages(loaded).set(loaded.page + 1, last._sort);
      const hasNext = full && (result.total_relation === 'gte' || loaded.page * PAGE_SIZE < result.total);
      return { ...view, result, facets, hasNext };
    } catch (e) {
      if ((e as Error).name === 'AbortError') throw e;
      return { ...view, error: message(e) };
    }
  }

  private pages(state: PageState): Map<number, unknown> {
    const key = resultKey(state);
    let pages = this.cursors.get(key);
    if (pages === undefined) this.cursors.set(key, (pages = new Map<number, unknown>()));
    return pages;
  }

  private async schemaOf(index: string, api: ApiClient): Promise<IndexSchema> {
    let schema = this.schemas.get(index);
    if (schema === undefined) this.schemas.set(index, (schema = indexSchema(index, await api.getMappingFields(index))));
    return schema;
  }

  /** The buckets of each numeric/date facet, from its smallest and largest value in the index. */
  private async rangesOf(schema: IndexSchema, api: ApiClient, signal?: AbortSignal): Promise<RangeBuckets> {
    const known = this.ranges.get(schema.name);
    if (known !== undefined) return known;
    const fields = schema.facets.filter((f) => f.kind === 'range');
    const out: Record<string, { from?: number; to?: number }[]> = {};
    if (fields.length > 0) {
      const aggs = Object.fromEntries(fields.map((f) => [f.name, { term: { field: f.name, size: 'all' } }]));
      const r = await api.search(schema.name, { query: { match_all: {} }, size: 0, track_total_hits: false, aggs }, signal);
      for (const f of fields) {
        const values = (r.aggs?.[f.name]?.buckets ?? []).map((b) => b.term).filter((t): t is number => typeof t === 'number');
        if (values.length > 0) out[f.name] = rangeBuckets(Math.min(...values), Math.max(...values), f.baseType);
      }
    }
    this.ranges.set(schema.name, out);
    return out;
  }

  /**
   * The `search_after` of the state's page: undefined for page 1, remembered from an earlier page,
   * or found by reading the ids of the hits before it (from the nearest page whose start is known).
   */
  private async cursorFor(state: PageState, schema: IndexSchema, api: ApiClient, signal?: AbortSignal): Promise<unknown> {
    if (state.page === 1) return undefined;
    const pages = this.pages(state);
    if (pages.has(state.page)) return pages.get(state.page);
    let from = 1;
    for (const p of pages.keys()) if (p < state.page && p > from) from = p;
    let after = from === 1 ? undefined : pages.get(from);
    let skip = (state.page - from) * PAGE_SIZE;
    while (skip > 0) {
      const step = Math.min(skip, MAX_WINDOW);
      const r = await api.search(schema.name, seekBody(state, schema, step, after), signal);
      if (r.hits.length < step) return PAST_END;
      after = r.hits[r.hits.length - 1]._sort;
      skip -= step;
    }
    pages.set(state.page, after);
    return after;
  }
}
