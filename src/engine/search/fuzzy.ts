/**
 * Fuzzy queries: the terms of a field within an edit distance (Levenshtein, 1 or 2) of the value,
 * collected over every segment so all segments score the same expansion; the closest and most
 * frequent `maxExpansions` are kept and scored as a dis_max (a doc matching several spellings
 * counts its best one).
 */
import type { Snapshot } from '../segment/snapshot.js';
import type { MultiTermQuery, Query } from './query.js';

/** Rewrites a fuzzy query into a dis_max of single-term queries (nothing matches when no term is close). */
export function expandFuzzy(query: MultiTermQuery, snapshot: Snapshot): Query {
  const found = new Map<string, { distance: number; docFreq: number }>();
  const k = query.fuzziness;
  for (const segment of snapshot.segments) {
    for (const entry of segment.reader.terms.terms(query.field)) {
      if (Math.abs(entry.term.length - query.value.length) > k) continue;
      const distance = editDistance(query.value, entry.term, k);
      if (distance > k) continue;
      const seen = found.get(entry.term);
      found.set(entry.term, { distance, docFreq: (seen?.docFreq ?? 0) + entry.docFreq });
    }
  }
  const best = [...found.entries()]
    .sort((a, b) => a[1].distance - b[1].distance || b[1].docFreq - a[1].docFreq || (a[0] < b[0] ? -1 : 1))
    .slice(0, query.maxExpansions);
  const clauses: Query[] = best.map(([term]) => ({ kind: 'terms', field: query.field, terms: [term], operator: 'or', boost: query.boost }));
  // No close term: a query without terms, which matches nothing.
  if (clauses.length === 0) return { kind: 'terms', field: query.field, terms: [], operator: 'or', boost: query.boost };
  return clauses.length === 1 ? clauses[0] : { kind: 'dis_max', clauses, tieBreaker: 0 };
}

/** Levenshtein distance of a and b, or any value > max as soon as it must exceed max. */
export function editDistance(a: string, b: string, max: number): number {
  const n = a.length;
  const m = b.length;
  let previous = new Int32Array(m + 1);
  let current = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) previous[j] = j;
  for (let i = 1; i <= n; i++) {
    current[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      current[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [previous, current] = [current, previous];
  }
  return previous[m];
}
