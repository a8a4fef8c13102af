/**
 * Answers a suggest request on a snapshot. Per field, the candidates that start with the typed
 * words (the last one may be partial) are ranked by how many live documents hold them, summed
 * over segments; when all fields together give fewer than `count` of them, candidates within one
 * typo in the last word (fuzzy-prefix.ts) follow the exact ones, ranked from `depth + 1` on so that
 * an exact completion of any field outranks a correction. The per-field lists are then fused with
 * reciprocal-rank fusion (a candidate ranked r in a field scores 1 / (scale + r), summed over
 * fields) and deduplicated by their lower-cased text.
 *
 * Across segments the top counts are found with Fagin's threshold algorithm: each segment yields
 * its candidates in decreasing count (ranked-ranges.ts), every new candidate is counted in every
 * segment by binary search, and the walk stops once the k-th best total reaches the sum of the
 * counts the segments would yield next, which bounds the total of anything not seen yet. A
 * segment's stored count includes its deleted docs, so it is an upper bound and the bound holds;
 * the live count is taken from the candidate's docs when a segment has deletions.
 */
import { getAnalyzer } from '../analysis/analyzers.js';
import type { LiveDocs } from '../codec/live-docs/live-docs.js';
import type { SuggestionField } from '../codec/suggestions/suggestions-reader.js';
import type { Snapshot } from '../segment/snapshot.js';
import { foldCase, surfaceWords } from './candidate-words.js';
import { fuzzyPrefixRanges, MIN_FUZZY_LENGTH } from './fuzzy-prefix.js';
import { RangeMax, RankedRanges } from './ranked-ranges.js';
import { segmentSuggestions } from './suggest-merger.js';
import type { PreparedSuggest } from './suggest-request.js';

/** One suggestion: the text to show and its fused score. */
export interface Suggestion {
  readonly text: string;
  readonly score: number;
}

/** What {@link suggest} answers; `took` in milliseconds. */
export interface SuggestResponse {
  readonly suggestions: readonly Suggestion[];
  readonly took: number;
}

/** A field's candidates in one segment, with that segment's live docs. */
interface FieldView {
  readonly field: SuggestionField;
  readonly live: LiveDocs;
  readonly allLive: boolean;
}

/** A candidate with its live document count over the snapshot. */
interface Ranked {
  readonly key: string;
  readonly display: string;
  readonly count: number;
}

const rangeMaxes = new WeakMap<SuggestionField, RangeMax>();

/** Runs a prepared suggest request on a snapshot the caller holds. */
export async function suggest(snapshot: Snapshot, request: PreparedSuggest, started = performance.now()): Promise<SuggestResponse> {
  const perSegment = await Promise.all(snapshot.segments.map(async (s) => ({ s, fields: await segmentSuggestions(s.reader) })));
  const lists: Ranked[][] = [];
  const typed: { views: FieldView[]; head: string; last: string }[] = [];
  for (const { name, options } of request.fields) {
    const words = surfaceWords(getAnalyzer(options.analyzer), request.text).map(foldCase);
    const views: FieldView[] = [];
    for (const { s, fields } of perSegment) {
      const field = fields?.get(name);
      if (field !== undefined) views.push({ field, live: s.liveDocs, allLive: s.liveDocs.liveCount === s.reader.maxDoc });
    }
    if (words.length === 0 || views.length === 0) continue;
    const prefix = words.join(' ');
    const last = words[words.length - 1];
    typed.push({ views, head: prefix.slice(0, prefix.length - last.length), last });
    lists.push(topCandidates(views, (f) => [f.prefixRange(prefix)], request.depth));
  }
  const ranked = lists.map((list) => list.map((c, i) => ({ ...c, rank: i + 1 })));
  const exact = new Set(lists.flatMap((l) => l.map((c) => c.key)));
  if (exact.size < request.count) {
    typed.forEach(({ views, head, last }, i) => {
      if (last.length < MIN_FUZZY_LENGTH) return;
      const fuzzy = topCandidates(views, (f) => fuzzyPrefixRanges(f, head, last), request.depth).filter((c) => !exact.has(c.key));
      // Corrections rank after every place an exact completion can take in any field.
      ranked[i].push(...fuzzy.map((c, j) => ({ ...c, rank: request.depth + 1 + j })));
    });
  }
  return { suggestions: fuse(ranked, request.scale).slice(0, request.count), took: performance.now() - started };
}

/**
 * The `k` candidates with the most live docs over `views` among the key ranges `rangesOf` gives
 * each segment (the same prefixes in every segment), in decreasing count, ties by key.
 */
function topCandidates(views: readonly FieldView[], rangesOf: (f: SuggestionField) => [number, number][], k: number): Ranked[] {
  const streams = views.map((v) => new RankedRanges(rangeMaxOf(v.field), v.field.counts, rangesOf(v.field)));
  const seen = new Set<string>();
  const best: Ranked[] = [];
  while (true) {
    let bound = 0;
    let from = -1;
    for (let s = 0; s < streams.length; s++) {
      const c = streams[s].peekCount();
      if (c < 0) continue;
      bound += c;
      if (from < 0 || c > streams[from].peekCount()) from = s;
    }
    if (from < 0 || (best.length >= k && best[k - 1].count >= bound)) break;
    const key = views[from].field.key(streams[from].next());
    if (seen.has(key)) continue;
    seen.add(key);
    let count = 0;
    let display: string | undefined;
    for (const v of views) {
      const i = v.field.indexOf(key);
      if (i < 0) continue;
      const live = v.allLive ? v.field.counts[i] : liveCount(v, i);
      if (live === 0) continue;
      count += live;
      display ??= v.field.display(i);
    }
    if (display !== undefined) insertRanked(best, { key, display, count }, k);
  }
  return best;
}

function rangeMaxOf(field: SuggestionField): RangeMax {
  let max = rangeMaxes.get(field);
  if (max === undefined) {
    max = new RangeMax(field.counts);
    rangeMaxes.set(field, max);
  }
  return max;
}

function liveCount(view: FieldView, i: number): number {
  let n = 0;
  for (const d of view.field.docs(i)) if (view.live.isLive(d)) n++;
  return n;
}

/** Inserts into a list sorted by count (desc) then key, keeping at most `k`. */
function insertRanked(list: Ranked[], c: Ranked, k: number): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const m = list[mid];
    if (m.count > c.count || (m.count === c.count && m.key < c.key)) lo = mid + 1;
    else hi = mid;
  }
  if (lo >= k) return;
  list.splice(lo, 0, c);
  if (list.length > k) list.pop();
}

/**
 * Reciprocal-rank fusion of per-field lists (each candidate carries its rank in its field),
 * deduplicated by key; the text comes from the best rank.
 */
function fuse(lists: readonly (Ranked & { readonly rank: number })[][], scale: number): Suggestion[] {
  const fused = new Map<string, { text: string; score: number; rank: number }>();
  for (const list of lists) {
    list.forEach((c) => {
      const rank = c.rank;
      const f = fused.get(c.key);
      if (f === undefined) fused.set(c.key, { text: c.display, score: 1 / (scale + rank), rank });
      else {
        f.score += 1 / (scale + rank);
        if (rank < f.rank) {
          f.rank = rank;
          f.text = c.display;
        }
      }
    });
  }
  return [...fused.entries()]
    .sort(([ka, a], [kb, b]) => b.score - a.score || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .map(([, f]) => ({ text: f.text, score: f.score }));
}
