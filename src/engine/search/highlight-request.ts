/**
 * The `highlight` part of a search request: which stored text fields to highlight, with which
 * options, and the analyzed query terms that count as matches in each field.
 */
import { getAnalyzer } from '../analysis/analyzers.js';
import type { Mapping } from '../schema/mapping.js';
import { highlight } from './highlighter.js';
import type { HighlightOptions } from './highlighter.js';
import type { Query } from './query.js';
import { invalid } from './query.js';

/** Turns a hit's stored fields into `{ field: fragments }` (fields without a match are left out). */
export type Highlighter = (stored: Record<string, unknown>) => Record<string, string[]>;

/** Parses `highlight: { fields, fragment_size?, number_of_fragments?, pre_tag?, post_tag? }`. */
export function parseHighlight(json: unknown, mapping: Mapping, query: Query): Highlighter | null {
  if (json === undefined || json === null) return null;
  if (typeof json !== 'object' || Array.isArray(json)) throw invalid('highlight', 'expected an object with "fields"');
  const o = json as Record<string, unknown>;
  const allowed = ['fields', 'fragment_size', 'number_of_fragments', 'pre_tag', 'post_tag'];
  for (const k of Object.keys(o)) if (!allowed.includes(k)) throw invalid(`highlight.${k}`, `unknown key; expected one of ${allowed.join(', ')}`);
  if (!Array.isArray(o.fields) || !o.fields.every((f) => typeof f === 'string')) throw invalid('highlight.fields', 'expected an array of field names');
  const fields = (o.fields).map((name) => {
    const field = mapping.field(name);
    if (field?.analyzer == null) throw invalid('highlight.fields', `field "${name}" is not a searchable text field`, { field: name });
    return { name, analyzer: getAnalyzer(field.analyzer) };
  });
  const options: { fragmentSize?: number; numberOfFragments?: number; preTag?: string; postTag?: string } = {};
  if (typeof o.fragment_size === 'number') options.fragmentSize = o.fragment_size;
  if (typeof o.number_of_fragments === 'number') options.numberOfFragments = o.number_of_fragments;
  if (typeof o.pre_tag === 'string') options.preTag = o.pre_tag;
  if (typeof o.post_tag === 'string') options.postTag = o.post_tag;
  const terms = queryTerms(query);
  return (stored) => {
    const out: Record<string, string[]> = {};
    for (const f of fields) {
      const wanted = terms.get(f.name);
      const value = stored[f.name];
      if (wanted === undefined || value === undefined || value === null) continue;
      const texts = (Array.isArray(value) ? (value as unknown[]) : [value]).filter((v): v is string => typeof v === 'string');
      const fragments = texts.flatMap((t) => highlight(t, f.analyzer, wanted, options as HighlightOptions));
      if (fragments.length > 0) out[f.name] = fragments;
    }
    return out;
  };
}

/** The analyzed terms a query looks for, by field (prefix and fuzzy expansions are not included). */
function queryTerms(query: Query, out = new Map<string, Set<string>>()): Map<string, Set<string>> {
  const add = (field: string, terms: readonly string[]): void => {
    let set = out.get(field);
    if (set === undefined) out.set(field, (set = new Set()));
    for (const t of terms) set.add(t);
  };
  switch (query.kind) {
    case 'terms':
    case 'phrase':
      add(query.field, query.terms);
      break;
    case 'sum':
    case 'dis_max':
      for (const c of query.clauses) queryTerms(c, out);
      break;
    case 'bool':
      for (const c of [...query.must, ...query.should, ...query.filter]) queryTerms(c, out);
      break;
    default:
      break;
  }
  return out;
}
