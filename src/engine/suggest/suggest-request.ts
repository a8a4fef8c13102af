/**
 * The suggest request in Nixiesearch 0.8's shape (`SuggestRoute.scala`):
 * `{ query, fields, count = 10, rerank: { rrf: { depth = 50, scale = 60 } } }`, checked against
 * the mapping. Unknown keys, unknown fields and fields without `suggest` are 400s naming them.
 */
import { isWildcardName } from '../schema/field-name.js';
import { invalid } from '../search/query.js';
import type { Mapping } from '../schema/mapping.js';
import type { SuggestMapping } from '../schema/text-options.js';

/** A suggest request as it arrives (JSON). */
export interface SuggestRequest {
  /** What the user has typed so far; the last word may be partial. */
  readonly query?: unknown;
  /** Fields whose candidates are merged; default every field with `suggest`. */
  readonly fields?: unknown;
  /** Suggestions returned (default 10). */
  readonly count?: unknown;
  /** `{ rrf: { depth, scale } }`: candidates taken per field and the RRF constant. */
  readonly rerank?: unknown;
}

/** A request checked against the mapping. */
export interface PreparedSuggest {
  readonly text: string;
  readonly fields: readonly { readonly name: string; readonly options: SuggestMapping }[];
  readonly count: number;
  /** Candidates ranked per field before fusion (`rrf.depth`). */
  readonly depth: number;
  /** RRF constant: a candidate ranked r in a field scores 1 / (scale + r) (`rrf.scale`). */
  readonly scale: number;
}

const MAX_COUNT = 1000;
const MAX_QUERY_LENGTH = 1000;

/** Parses and validates a suggest request; throws `invalid_query` naming the key or field. */
export function prepareSuggest(request: unknown, mapping: Mapping): PreparedSuggest {
  const o = objectAt(request, 'request');
  checkKeys(o, ['query', 'fields', 'count', 'rerank'], '');
  if (typeof o.query !== 'string') throw invalid('query', `expected a string, got ${typeName(o.query)}`, { field: 'query', expected: 'string', actual: typeName(o.query) });
  if (o.query.length > MAX_QUERY_LENGTH) throw invalid('query', `expected at most ${MAX_QUERY_LENGTH} characters, got ${o.query.length}`);
  const count = integerAt(o.count, 'count', 10, 1, MAX_COUNT);
  let depth = 50;
  let scale = 60;
  if (o.rerank !== undefined) {
    const rerank = objectAt(o.rerank, 'rerank');
    checkKeys(rerank, ['rrf', 'ltr'], 'rerank');
    if (rerank.ltr !== undefined) throw invalid('rerank.ltr', 'learning-to-rank reranking of suggestions is not implemented (Nixiesearch 0.8 refuses it too); use rrf');
    if (rerank.rrf !== undefined) {
      const rrf = objectAt(rerank.rrf, 'rerank.rrf');
      checkKeys(rrf, ['depth', 'scale'], 'rerank.rrf');
      depth = integerAt(rrf.depth, 'rerank.rrf.depth', depth, 1, MAX_COUNT);
      scale = integerAt(rrf.scale, 'rerank.rrf.scale', scale, 1, 1_000_000);
    }
  }
  return { text: o.query, fields: suggestFields(o.fields, mapping), count, depth: Math.max(depth, count), scale };
}

function suggestFields(raw: unknown, mapping: Mapping): PreparedSuggest['fields'] {
  if (raw === undefined) {
    return mapping.fields.flatMap((f) => (f.suggest === null || isWildcardName(f.name) ? [] : [{ name: f.name, options: f.suggest }]));
  }
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every((f) => typeof f === 'string')) {
    throw invalid('fields', `expected a non-empty array of field names, got ${typeName(raw)}`, { field: 'fields', expected: 'array of strings', actual: typeName(raw) });
  }
  const names = [...new Set(raw)];
  return names.map((name, i) => {
    const mapped = mapping.field(name);
    if (mapped === undefined) throw invalid(`fields[${i}]`, `field "${name}" is not in the mapping`, { field: name });
    if (mapped.suggest === null) {
      throw invalid(`fields[${i}]`, `field "${name}" has no suggestions (its mapping does not set suggest: true)`, { field: name, expected: 'a field with suggest', actual: mapped.type });
    }
    return { name, options: mapped.suggest };
  });
}

function objectAt(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(path, `expected an object, got ${typeName(v)}`, { expected: 'object', actual: typeName(v) });
  return v as Record<string, unknown>;
}

function checkKeys(o: Record<string, unknown>, allowed: readonly string[], path: string): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) throw invalid(path === '' ? k : `${path}.${k}`, `unknown key; expected one of ${allowed.join(', ')}`, { key: k });
  }
}

function integerAt(v: unknown, path: string, dflt: number, min: number, max: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw invalid(path, `expected an integer from ${min} to ${max}, got ${JSON.stringify(v)}`, { expected: `integer ${min}..${max}`, actual: typeName(v) });
  }
  return v;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
