/**
 * A naive in-memory evaluation of search requests: every document is checked against the query and
 * filters one by one, scored with the brute-force BM25 definitions, sorted with a plain array sort
 * and aggregated with plain counting. The engine must return the same.
 */
import { lengthToNorm, normToLength } from '../../src/engine/codec/norms/small-float.js';
import { phraseFrequency } from '../../src/engine/search/phrase-scorer.js';

export interface ModelDoc {
  readonly id: string;
  readonly title: readonly string[];
  readonly body: readonly string[];
  readonly tag: readonly string[];
  readonly num: number | null;
}

export type ModelQuery =
  | { readonly kind: 'match_all' }
  | { readonly kind: 'match'; readonly field: 'title' | 'body'; readonly terms: readonly string[]; readonly operator: 'or' | 'and' }
  | { readonly kind: 'phrase'; readonly terms: readonly string[]; readonly slop: number }
  | { readonly kind: 'prefix'; readonly prefix: string }
  | { readonly kind: 'bool'; readonly must: readonly ModelQuery[]; readonly should: readonly ModelQuery[]; readonly mustNot: readonly ModelQuery[]; readonly filter: readonly ModelQuery[] };

export type ModelFilter =
  | { readonly kind: 'term'; readonly tags: readonly string[] }
  | { readonly kind: 'range'; readonly gte?: number; readonly lt?: number }
  | { readonly kind: 'and' | 'or'; readonly filters: readonly ModelFilter[] }
  | { readonly kind: 'not'; readonly filter: ModelFilter };

export interface ModelSortKey {
  readonly by: '_score' | 'num' | 'tag';
  readonly order: 'asc' | 'desc';
  readonly missing: 'first' | 'last';
}

const K1 = 1.2;
const B = 0.75;

/** Scores `doc` for `query` (null: no match) over the corpus `docs`. */
export function modelScore(docs: readonly ModelDoc[], doc: ModelDoc, query: ModelQuery): number | null {
  switch (query.kind) {
    case 'match_all':
      return 1;
    case 'match': {
      let score = 0;
      let matched = 0;
      for (const term of query.terms) {
        const s = termScore(docs, doc, query.field, term, 1);
        if (s === null) {
          if (query.operator === 'and') return null;
          continue;
        }
        score += s;
        matched++;
      }
      return matched === 0 ? null : score;
    }
    case 'phrase': {
      if (query.terms.length === 0) return null;
      const tokens = doc.body;
      const positions = query.terms.map((t) => tokens.flatMap((tok, i) => (tok === t ? [i] : [])));
      if (positions.some((p) => p.length === 0)) return null;
      const freq = phraseFrequency(positions, positions.map((p) => p.length), query.terms.map((_, i) => i), query.slop);
      if (freq === 0) return null;
      let weight = 0;
      for (const t of query.terms) weight += idf(docs, 'body', t);
      return weight - weight / (1 + freq * normInverse(docs, 'body', tokens.length));
    }
    case 'prefix':
      return doc.title.some((t) => t.startsWith(query.prefix)) ? 1 : null;
    case 'bool': {
      let score = 0;
      for (const q of query.must) {
        const s = modelScore(docs, doc, q);
        if (s === null) return null;
        score += s;
      }
      for (const q of query.filter) if (modelScore(docs, doc, q) === null) return null;
      for (const q of query.mustNot) if (modelScore(docs, doc, q) !== null) return null;
      let matchedShould = 0;
      for (const q of query.should) {
        const s = modelScore(docs, doc, q);
        if (s !== null) {
          score += s;
          matchedShould++;
        }
      }
      const required = query.must.length + query.filter.length;
      if (required === 0 && query.should.length === 0) return 0;
      if (required === 0 && matchedShould === 0) return null;
      return score;
    }
  }
}

function termScore(docs: readonly ModelDoc[], doc: ModelDoc, field: 'title' | 'body', term: string, boost: number): number | null {
  const tf = doc[field].filter((t) => t === term).length;
  if (tf === 0) return null;
  const w = boost * idf(docs, field, term);
  return w - w / (1 + tf * normInverse(docs, field, doc[field].length));
}

function idf(docs: readonly ModelDoc[], field: 'title' | 'body', term: string): number {
  const withField = docs.filter((d) => d[field].length > 0);
  const df = withField.filter((d) => d[field].includes(term)).length;
  return Math.log(1 + (withField.length - df + 0.5) / (df + 0.5));
}

function normInverse(docs: readonly ModelDoc[], field: 'title' | 'body', length: number): number {
  const withField = docs.filter((d) => d[field].length > 0);
  const avgdl = withField.reduce((s, d) => s + d[field].length, 0) / withField.length;
  return 1 / (K1 * (1 - B + (B * normToLength(lengthToNorm(length))) / avgdl));
}

/** Whether a doc passes a filter. */
export function modelFilter(doc: ModelDoc, f: ModelFilter): boolean {
  switch (f.kind) {
    case 'term':
      return doc.tag.some((t) => f.tags.includes(t));
    case 'range':
      return doc.num !== null && (f.gte === undefined || doc.num >= f.gte) && (f.lt === undefined || doc.num < f.lt);
    case 'and':
      return f.filters.every((x) => modelFilter(doc, x));
    case 'or':
      return f.filters.some((x) => modelFilter(doc, x));
    case 'not':
      return !modelFilter(doc, f.filter);
  }
}

/** A doc's sort value under a key (min ascending, max descending; null when missing). */
export function modelSortValue(doc: ModelDoc, score: number, key: ModelSortKey): number | string | null {
  if (key.by === '_score') return score;
  if (key.by === 'num') return doc.num;
  if (doc.tag.length === 0) return null;
  const sorted = [...doc.tag].sort();
  return key.order === 'asc' ? sorted[0] : sorted[sorted.length - 1];
}

/** Compares two docs' sort values (then ids), as the engine defines the order. */
export function modelCompare(a: { values: (number | string | null)[]; id: string }, b: { values: (number | string | null)[]; id: string }, keys: readonly ModelSortKey[]): number {
  for (let i = 0; i < keys.length; i++) {
    const x = a.values[i];
    const y = b.values[i];
    if (x === y) continue;
    const missingFirst = keys[i].missing === 'first';
    if (x === null) return missingFirst ? -1 : 1;
    if (y === null) return missingFirst ? 1 : -1;
    return (x < y ? -1 : 1) * (keys[i].order === 'asc' ? 1 : -1);
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
