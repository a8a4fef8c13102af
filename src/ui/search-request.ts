/**
 * Turns the page state into `POST /<index>/_search` bodies (docs/search.md): the query for the
 * search box in the chosen mode, facet filters, aggregations, sort, `search_after` paging and
 * highlighting. Pure, so the request a given URL sends is tested without a browser.
 *
 * Facets are disjunctive, as in most search UIs: values ticked in one facet are OR-ed, facets are
 * AND-ed, and a facet's own counts are computed without its own selection (one extra request per
 * facet with a selection), so ticking "drama" still shows how many "action" hits there would be.
 */
import type { FacetField, IndexSchema } from './index-schema.js';
import { parseRange } from './url-state.js';
import type { PageState } from './url-state.js';

/** A search request body; the server validates it (docs/search.md). */
export type SearchBody = Record<string, unknown>;

/** Hits per page. */
export const PAGE_SIZE = 10;

/** Marks around highlighted words; private-use characters never occur in real text. */
export const HIGHLIGHT_PRE = '\uE000';
export const HIGHLIGHT_POST = '\uE001';

/** The range buckets shown for a numeric/date facet, computed once per index (see facet-ranges.ts). */
export type RangeBuckets = Readonly<Record<string, readonly { readonly from?: number; readonly to?: number }[]>>;

/** The query for the search box: match_all when empty, else lexical, semantic or both fused. */
export function queryFor(state: PageState, schema: IndexSchema): unknown {
  const q = state.q.trim();
  if (q === '') return { match_all: {} };
  const lexical = { multi_match: { query: q, fields: schema.textFields } };
  if (schema.semanticFields.length === 0 || state.mode === 'lexical') return lexical;
  const semantic = { semantic: { field: schema.semanticFields[0], query: q } };
  return state.mode === 'semantic' ? semantic : { rrf: { retrieve: [lexical, semantic] } };
}

/** The sort keys: relevance (`_score`) or one field; always explicit, so hits carry `_sort` for paging. */
export function sortFor(state: PageState, schema: IndexSchema): unknown[] {
  const [field, order] = state.sort.split(':');
  if (state.sort === '' || !schema.sortFields.includes(field)) return ['_score'];
  return [{ [field]: { order } }];
}

/** The filter of one facet's selected values, or null when none is usable. */
function facetFilter(facet: FacetField, values: readonly string[]): unknown {
  if (facet.kind === 'terms') {
    const typed = values.map((v) => (facet.baseType === 'bool' ? v === 'true' : v));
    return typed.length === 0 ? null : { terms: { [facet.name]: typed } };
  }
  const ranges = values.map(parseRange).filter((r) => r !== null).map((r) => ({
    range: { [facet.name]: { ...(r.from === undefined ? {} : { gte: r.from }), ...(r.to === undefined ? {} : { lt: r.to }) } },
  }));
  if (ranges.length === 0) return null;
  return ranges.length === 1 ? ranges[0] : { or: ranges };
}

/** `filters` for the selections of every facet except `skip`; undefined when there are none. */
export function filtersFor(state: PageState, schema: IndexSchema, skip?: string): unknown {
  const parts = schema.facets
    .filter((f) => f.name !== skip && (state.filters[f.name] ?? []).length > 0)
    .map((f) => facetFilter(f, state.filters[f.name]))
    .filter((f) => f !== null);
  if (parts.length === 0) return undefined;
  return { include: parts.length === 1 ? parts[0] : { and: parts } };
}

function aggFor(facet: FacetField, ranges: RangeBuckets): unknown {
  if (facet.kind === 'terms') return { term: { field: facet.name, size: 10 } };
  const buckets = ranges[facet.name] ?? [];
  if (buckets.length === 0) return undefined;
  return { range: { field: facet.name, ranges: buckets.map((b) => ({ ...(b.from === undefined ? {} : { gte: b.from }), ...(b.to === undefined ? {} : { lt: b.to }) })) } };
}

function withFilters(body: SearchBody, filters: unknown): SearchBody {
  return filters === undefined ? body : { ...body, filters };
}

/** Aggregations named after their fields, for `facets`. */
function aggsFor(facets: readonly FacetField[], ranges: RangeBuckets): Record<string, unknown> {
  const aggs: Record<string, unknown> = {};
  for (const f of facets) {
    const agg = aggFor(f, ranges);
    if (agg !== undefined) aggs[f.name] = agg;
  }
  return aggs;
}

/**
 * The request for the page of hits: `searchAfter` is the `_sort` of the previous page's last hit
 * (undefined on page 1). Facets without a selection are counted here; see {@link facetCountBodies}.
 */
export function hitsBody(state: PageState, schema: IndexSchema, ranges: RangeBuckets, searchAfter: unknown): SearchBody {
  const selected = (f: FacetField): boolean => (state.filters[f.name] ?? []).length > 0;
  const aggs = aggsFor(schema.facets.filter((f) => !selected(f)), ranges);
  const body: SearchBody = {
    query: queryFor(state, schema),
    sort: sortFor(state, schema),
    size: PAGE_SIZE,
    track_total_hits: true,
    ...(Object.keys(aggs).length === 0 ? {} : { aggs }),
    ...(schema.textFields.length === 0 || state.q.trim() === ''
      ? {}
      : { highlight: { fields: schema.textFields, number_of_fragments: 0, pre_tag: HIGHLIGHT_PRE, post_tag: HIGHLIGHT_POST } }),
    ...(searchAfter === undefined ? {} : { search_after: searchAfter }),
  };
  return withFilters(body, filtersFor(state, schema));
}

/** One count-only request per facet with a selection: its counts under every other facet's filter. */
export function facetCountBodies(state: PageState, schema: IndexSchema, ranges: RangeBuckets): { field: string; body: SearchBody }[] {
  return schema.facets
    .filter((f) => (state.filters[f.name] ?? []).length > 0)
    .map((f) => {
      const aggs = aggsFor([f], ranges);
      const body: SearchBody = { query: queryFor(state, schema), size: 0, track_total_hits: false, aggs };
      return { field: f.name, body: withFilters(body, filtersFor(state, schema, f.name)) };
    })
    .filter((r) => Object.keys(r.body.aggs as object).length > 0);
}

/**
 * The request that finds where page `page` starts when the page is opened from a URL: the ids of
 * the `skip` hits before it (no stored fields), whose last `_sort` is the page's `search_after`.
 */
export function seekBody(state: PageState, schema: IndexSchema, skip: number, searchAfter: unknown): SearchBody {
  const body: SearchBody = {
    query: queryFor(state, schema),
    sort: sortFor(state, schema),
    size: skip,
    track_total_hits: false,
    fields: ['_id'],
    ...(searchAfter === undefined ? {} : { search_after: searchAfter }),
  };
  return withFilters(body, filtersFor(state, schema));
}
