/**
 * The page's whole state lives in its URL (`/?index=movies&q=matrix&genres=action&page=2`), so a
 * search can be shared, reloaded, and walked with back/forward. This module is the one place that
 * reads and writes that URL; it is pure (URLSearchParams in, out) so it is tested without a browser.
 *
 * Parameters: `index`, `q`, `mode` (lexical | semantic | hybrid; default lexical), `sort`
 * (`<field>:asc|desc`; default relevance), `page` (1-based; default 1), and one repeated parameter
 * per facet field holding its selected values: a term (`genres=action&genres=drama`) or a range
 * `<from>..<to>` meaning from <= value < to, either side open, numbers or ISO dates (`year=1990..2000`,
 * `rating=8..`, `released=2020-01-01..`).
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

/** One bound: a number, or an ISO date (`2023-01-01`, `2023-01-01T10:00:00Z`) as epoch milliseconds. */
function parseBound(text: string): number | undefined | null {
  if (text === '') return undefined;
  const n = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(text) ? Date.parse(text) : /^[-+\d.eE]+$/.test(text) ? Number(text) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** Parses `<from>..<to>` (numbers or ISO dates, either side empty); null when the text is not a range. */
export function parseRange(text: string): RangeValue | null {
  const parts = text.split('..');
  if (parts.length !== 2) return null;
  const from = parseBound(parts[0]);
  const to = parseBound(parts[1]);
  if (from === null || to === null || (from === undefined && to === undefined)) return null;
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/** Writes a range as `<from>..<to>`; `dates` writes ISO dates (days when the bounds are midnights). */
export function formatRange(range: RangeValue, dates = false): string {
  const show = (v: number | undefined): string => {
    if (v === undefined) return '';
    if (!dates) return String(v);
    const iso = new Date(v).toISOString();
    return v % 86_400_000 === 0 ? iso.slice(0, 10) : iso;
  };
  return `${show(range.from)}..${show(range.to)}`;
}
