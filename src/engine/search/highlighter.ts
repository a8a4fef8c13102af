/**
 * Search-result highlighting: fragments of a stored text with the words that produced query terms
 * wrapped in tags. The field's own analyzer reports each token's source offsets, so the words are
 * found by the same code that indexed them, whatever the language.
 */
import type { Analyzer } from '../analysis/analyzer.js';
import { ErrorCode, YarrowError } from '../errors.js';

/** How {@link highlight} cuts and marks fragments. */
export interface HighlightOptions {
  /** Target fragment length in UTF-16 code units (default 100); fragments end on word boundaries. */
  readonly fragmentSize?: number;
  /** Most fragments returned (default 3); 0 returns the whole text as one fragment. */
  readonly numberOfFragments?: number;
  /** Inserted before each matched word (default `<em>`), not escaped. */
  readonly preTag?: string;
  /** Inserted after each matched word (default `</em>`), not escaped. */
  readonly postTag?: string;
}

/** A word of the source text: `[start, end)` code-unit offsets. */
interface Span {
  readonly start: number;
  readonly end: number;
}

/** A matched word and the query term it produced. */
interface Hit extends Span {
  readonly term: string;
}

/**
 * Returns fragments of `text` around words whose analyzed form (by `analyzer`) is in `terms` (the
 * analyzed query terms), best first: most distinct matched terms, then earliest. Each fragment is
 * HTML-escaped except for the tags, with matched words wrapped in `preTag`/`postTag` in their
 * original casing. A text no longer than `fragmentSize` is one fragment. Returns [] when nothing
 * matches.
 * @throws YarrowError(ErrorCode.invalidQuery) when `fragmentSize` is not a positive integer or
 * `numberOfFragments` not a non-negative integer.
 */
export function highlight(
  text: string,
  analyzer: Analyzer,
  terms: ReadonlySet<string>,
  options: HighlightOptions = {},
): string[] {
  const fragmentSize = options.fragmentSize ?? 100;
  const numberOfFragments = options.numberOfFragments ?? 3;
  if (!Number.isInteger(fragmentSize) || fragmentSize < 1) throw badOption('fragmentSize', fragmentSize);
  if (!Number.isInteger(numberOfFragments) || numberOfFragments < 0) throw badOption('numberOfFragments', numberOfFragments);
  const preTag = options.preTag ?? '<em>';
  const postTag = options.postTag ?? '</em>';
  if (terms.size === 0 || text.length === 0) return [];

  const { spans, hits } = scan(text, analyzer, terms);
  if (hits.length === 0) return [];
  const render = (w: Window): string => renderFragment(text, w, hits, preTag, postTag);
  if (numberOfFragments === 0 || text.length <= fragmentSize) {
    return [render({ start: 0, end: text.length, firstHit: 0, endHit: hits.length, distinct: 0 })];
  }

  const windows = fragmentWindows(text.length, spans, hits, fragmentSize);
  return windows
    .sort((a, b) => b.distinct - a.distinct || a.start - b.start)
    .slice(0, numberOfFragments)
    .map(render);
}

function badOption(name: string, value: number): YarrowError {
  return new YarrowError(ErrorCode.invalidQuery, `highlight.${name}: expected a ${name === 'fragmentSize' ? 'positive' : 'non-negative'} integer, got ${value}`, {
    path: `highlight.${name}`,
  });
}

/**
 * Every word of `text` (for fragment boundaries) and the words whose term is in `terms`, in one
 * pass of the analyzer. A decomposed analyzer is run as tokenizer and filter, so words the filter
 * drops (stop words) still count as words; others report every word they keep.
 */
function scan(text: string, analyzer: Analyzer, terms: ReadonlySet<string>): { spans: Span[]; hits: Hit[] } {
  const spans: Span[] = [];
  const hits: Hit[] = [];
  const decomposed = analyzer.decomposed;
  if (decomposed !== undefined) {
    decomposed.tokenize(text, (token, _position, start, end) => {
      spans.push({ start, end });
      const term = decomposed.normalize(token);
      if (term !== null && terms.has(term)) hits.push({ start, end, term });
    });
  } else {
    analyzer.analyze(text, (term, _position, start, end) => {
      spans.push({ start, end });
      if (terms.has(term)) hits.push({ start, end, term });
    });
  }
  return { spans, hits };
}

/** A fragment's range, the hits inside it (`hits[firstHit, endHit)`) and how many distinct terms they are. */
interface Window extends Span {
  readonly firstHit: number;
  readonly endHit: number;
  readonly distinct: number;
}

/**
 * Disjoint windows of about `size` code units, each opened around the first hit not yet covered,
 * with the hit near its middle and both ends moved to word boundaries. Every hit lands in one
 * window; windows are built left to right, so the work is linear in the hits plus a binary search
 * per window end.
 */
function fragmentWindows(length: number, spans: readonly Span[], hits: readonly Hit[], size: number): Window[] {
  const windows: Window[] = [];
  let prevEnd = 0;
  let h = 0;
  while (h < hits.length) {
    const hit = hits[h];
    const slack = Math.max(0, size - (hit.end - hit.start));
    let start = Math.max(prevEnd, hit.start - Math.floor(slack / 2));
    let end = Math.min(length, start + Math.max(size, hit.end - hit.start));
    // Near the end of the text, spend the unused room on leading context instead.
    if (end === length) start = Math.max(prevEnd, Math.min(start, length - size));
    if (start > 0) start = Math.min(hit.start, spans[firstSpanStartingAtOrAfter(spans, start)].start);
    if (end < length) end = Math.max(hit.end, spans[lastSpanEndingAtOrBefore(spans, end)].end);
    const firstHit = h;
    const distinct = new Set<string>();
    for (; h < hits.length && hits[h].start < end; h++) distinct.add(hits[h].term);
    windows.push({ start, end, firstHit, endHit: h, distinct: distinct.size });
    prevEnd = end;
  }
  return windows;
}

/** Index of the first span with `start >= at`; callers guarantee one exists (the current hit). */
function firstSpanStartingAtOrAfter(spans: readonly Span[], at: number): number {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (spans[mid].start >= at) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Index of the last span with `end <= at`; callers guarantee one exists (the current hit). */
function lastSpanEndingAtOrBefore(spans: readonly Span[], at: number): number {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (spans[mid].end <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function renderFragment(text: string, window: Window, hits: readonly Hit[], preTag: string, postTag: string): string {
  let out = '';
  let pos = window.start;
  for (let h = window.firstHit; h < window.endHit; h++) {
    const hit = hits[h];
    out += escapeHtml(text.slice(pos, hit.start)) + preTag + escapeHtml(text.slice(hit.start, hit.end)) + postTag;
    pos = hit.end;
  }
  return out + escapeHtml(text.slice(pos, window.end));
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes the five characters that matter in HTML text and attribute values. */
function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => escapes[c]);
}
