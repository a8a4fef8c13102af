/**
 * The page's whole state lives in its URL (`/?index=movies&q=matrix&genres=action&page=2`), so a
 * search can be shared, reloaded, and walked with back/forward. This module is the one place that
 * reads and writes that URL; it is pure (URLSearchParams in, out) so it is tested without a browser.
 *
 * Parameters: `index`, `q`, `mode` (lexical | semantic | hybrid; default lexical), `sort`
 * (`<field>:asc|desc`; default relevance), `page` (1-based; default 1), and one repeated parameter
 * per facet field holding its selected values: a term (`genres=action&genres=drama`) or a range
 * `<from>..<to>` meaning from <= value < to, either side open (`year=1990..2000`, `rating=8..`).
 */

export const SEARCH_MODES = ['lexical', 'semantic', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** Everything that decides what the page shows. */
export interface PageState {
  readonly index: string | null;
  readonly q: string;
  readonly mode: SearchMode;
  /** `''` sorts by relevance, else `<field>:asc` or `<field>:desc`. */
  readonly sort: string;
  readonly page: number;
  /** Selected facet values by field, in the order they were ticked. */
  readonly filters: Readonly<Record<string, readonly string[]>>;
}

const RESERVED = new Set(['index', 'q', 'mode', 'sort', 'page']);

export const EMPTY_STATE: PageState = { index: null, q: '', mode: 'lexical', sort: '', page: 1, filters: {} };

/** Reads the state from a query string (`location.search`). Unusable values fall back to defaults. */
export function parseState(search: string): PageState {
  const params = new URLSearchParams(search);
  const filters: Record<string, string[]> = {};
  for (const [key, value] of params) {
    if (RESERVED.has(key) || value === '') continue;
    const list = (filters[key] ??= []);
    if (!list.includes(value)) list.push(value);
  }
  const mode = params.get('mode');
  const page = Number(params.get('page') ?? '1');
  const index = params.get('index');
  return {
    index: index === null || index === '' ? null : index,
    q: params.get('q') ?? '',
    mode: (SEARCH_MODES as readonly string[]).includes(mode ?? '') ? (mode as SearchMode) : 'lexical',
    sort: /^[^:]+:(asc|desc)$/.test(params.get('sort') ?? '') ? (params.get('sort') ?? '') : '',
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
    filters,
  };
}

/** Writes the state as a query string (with its leading `?`, or `''`), leaving out defaults. */
export function formatState(state: PageState): string {
  const params = new URLSearchParams();
  if (state.index !== null) params.set('index', state.index);
  if (state.q !== '') params.set('q', state.q);
  if (state.mode !== 'lexical') params.set('mode', state.mode);
  if (state.sort !== '') params.set('sort', state.sort);
  for (const [field, values] of Object.entries(state.filters)) for (const v of values) params.append(field, v);
  if (state.page > 1) params.set('page', String(state.page));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The state without its page: two states with the same key list the same hits in the same order. */
export function resultKey(state: PageState): string {
  return formatState({ ...state, page: 1 });
}

/** Ticks or unticks one facet value; any change of the hits goes back to page 1. */
export function toggleFilter(state: PageState, field: string, value: string): PageState {
  const current = state.filters[field] ?? [];
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  // Fields keep their place in the URL; a newly ticked field goes last.
  const entries: [string, readonly string[]][] = Object.entries(state.filters).map(([f, v]) => [f, f === field ? next : v]);
  if (!(field in state.filters)) entries.push([field, next]);
  return { ...state, filters: Object.fromEntries(entries.filter(([, v]) => v.length > 0)), page: 1 };
}

/** A range `from <= value < to`; a missing side is open. */
export interface RangeValue {
  readonly from?: number;
  readonly to?: number;
}

/** Parses `<from>..<to>`; null when the text is not a range. */
export function parseRange(text: string): RangeValue | null {
  const m = /^(-?[\d.eE+-]*)\.\.(-?[\d.eE+-]*)$/.exec(text);
  if (m === null) return null;
  const from = m[1] === '' ? undefined : Number(m[1]);
  const to = m[2] === '' ? undefined : Number(m[2]);
  if ((from !== undefined && !Number.isFinite(from)) || (to !== undefined && !Number.isFinite(to))) return null;
  if (from === undefined && to === undefined) return null;
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/** Writes a range as `<from>..<to>`. */
export function formatRange(range: RangeValue): string {
  return `${range.from === undefined ? '' : String(range.from)}..${range.to === undefined ? '' : String(range.to)}`;
}
