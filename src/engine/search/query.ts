/**
 * The query tree: parsed from the JSON search request (Elasticsearch / Nixiesearch shapes),
 * validated against the mapping, with query text already analyzed by each field's analyzer.
 */
import type { Analyzer } from '../analysis/analyzer.js';
import { ErrorCode, YarrowError } from '../errors.js';
import type { FieldMapping, Mapping } from '../schema/mapping.js';
import { crossFieldsQuery } from './cross-fields.js';

/** Matches every live doc with score 1 (times boost). */
export interface MatchAllQuery {
  readonly kind: 'match_all';
  readonly boost: number;
}

/** Analyzed terms of one field, combined with or / and. Duplicate terms each count, as in Lucene. */
export interface FieldTermsQuery {
  readonly kind: 'terms';
  readonly field: string;
  readonly terms: readonly string[];
  readonly operator: 'or' | 'and';
  readonly boost: number;
}

/** Clauses combined by sum (most_fields, should) or dis_max (best_fields). */
export interface CompoundQuery {
  readonly kind: 'sum' | 'dis_max';
  readonly clauses: readonly Query[];
  readonly tieBreaker: number;
}

/** bool: required (scored) `must`, optional `should`, excluded `mustNot`, required unscored `filter`. */
export interface BoolQuery {
  readonly kind: 'bool';
  readonly must: readonly Query[];
  readonly should: readonly Query[];
  readonly mustNot: readonly Query[];
  readonly filter: readonly Query[];
  /** Should clauses a doc must match (0 when must/filter clauses exist and none was asked). */
  readonly minimumShouldMatch: number;
  readonly boost: number;
}

/** Terms at relative positions (gaps where the analyzer dropped stop words), matched within `slop` moves. */
export interface PhraseQuery {
  readonly kind: 'phrase';
  readonly field: string;
  readonly terms: readonly string[];
  readonly positions: readonly number[];
  readonly slop: number;
  readonly boost: number;
}

/** Terms expanded from the term dictionary: a prefix (constant score) or a fuzzy match (scored). */
export interface MultiTermQuery {
  readonly kind: 'prefix' | 'fuzzy';
  readonly field: string;
  readonly value: string;
  /** Max edit distance (fuzzy only). */
  readonly fuzziness: number;
  readonly maxExpansions: number;
  readonly boost: number;
}

/**
 * The `k` nearest neighbours of a vector in a semantic field (`knn`, Elasticsearch's and
 * Nixiesearch's shape). A `semantic` query is this with the vector its text embeds to. The
 * searcher runs it over the whole snapshot first (per segment top k over live docs that pass the
 * request's filters, then the global top k), then scores those docs as a {@link ScoredDocsQuery}.
 * Scores are Lucene's: cosine `(1 + cos) / 2`, dot `1 + dot` (or `1 / (1 - dot)` below zero).
 */
export interface KnnQuery {
  readonly kind: 'knn';
  readonly field: string;
  readonly vector: Float32Array;
  /** Hits wanted, or null: the request's from + size (Nixiesearch's default). */
  readonly k: number | null;
  /** Candidates of each segment's graph walk (HNSW ef), or null: max(1.5 k, 100). */
  readonly numCandidates: number | null;
  readonly boost: number;
}

/** Docs with their scores, fixed in advance: a knn query once run over a snapshot (never parsed). */
export interface ScoredDocsQuery {
  readonly kind: 'scored_docs';
  /** Global doc numbers (snapshot order), ascending. */
  readonly docs: Int32Array;
  /** The score of each doc of `docs`. */
  readonly scores: Float32Array;
}

export type Query = MatchAllQuery | FieldTermsQuery | CompoundQuery | BoolQuery | PhraseQuery | MultiTermQuery | KnnQuery | ScoredDocsQuery;

/** Largest `k` and `num_candidates` of a knn query (as Nixiesearch and Elasticsearch). */
export const MAX_KNN_CANDIDATES = 10_000;

type AnalyzerOf = (name: string) => Analyzer;

/** Parses the `query` object of a search request. */
export function parseQuery(json: unknown, mapping: Mapping, analyzer: (name: string) => Analyzer, path = 'query'): Query {
  if (json === undefined || json === null) return { kind: 'match_all', boost: 1 };
  const [type, body] = singleKey(json, path);
  switch (type) {
    case 'match_all':
      return { kind: 'match_all', boost: optionalNumber(objectOf(body, `${path}.match_all`), 'boost', `${path}.match_all`) ?? 1 };
    case 'match':
      return parseMatch(body, mapping, analyzer, `${path}.match`);
    case 'multi_match':
      return parseMultiMatch(body, mapping, analyzer, `${path}.multi_match`);
    case 'bool':
      return parseBool(body, mapping, analyzer, `${path}.bool`);
    case 'dis_max': {
      const o = objectOf(body, `${path}.dis_max`);
      checkKeys(o, ['queries', 'tie_breaker'], `${path}.dis_max`);
      const queries = clauseList(o.queries, mapping, analyzer, `${path}.dis_max.queries`);
      if (queries.length === 0) throw invalid(`${path}.dis_max.queries`, 'expected at least one query');
      return { kind: 'dis_max', clauses: queries, tieBreaker: optionalNumber(o, 'tie_breaker', `${path}.dis_max`) ?? 0 };
    }
    case 'match_phrase':
      return parsePhrase(body, mapping, analyzer, `${path}.match_phrase`);
    case 'prefix':
    case 'fuzzy':
      return parseMultiTerm(type, body, mapping, `${path}.${type}`);
    case 'knn':
      return parseKnn(body, mapping, `${path}.knn`);
    case 'semantic':
      // Embedding the text is asynchronous (a model in a worker or behind HTTP): searchAsync turns
      // semantic queries into knn before this parser sees them.
      throw invalid(`${path}.semantic`, 'a semantic query embeds its text first: use Index.searchAsync (every HTTP search route does)');
    default:
      throw invalid(path, `unknown query type "${type}"; expected one of match_all, match, multi_match, bool, dis_max, match_phrase, prefix, fuzzy, knn`);
  }
}

function parseBool(body: unknown, mapping: Mapping, analyzer: AnalyzerOf, path: string): BoolQuery {
  const o = objectOf(body, path);
  checkKeys(o, ['must', 'should', 'must_not', 'filter', 'minimum_should_match', 'boost'], path);
  const must = clauseList(o.must, mapping, analyzer, `${path}.must`);
  const should = clauseList(o.should, mapping, analyzer, `${path}.should`);
  const mustNot = clauseList(o.must_not, mapping, analyzer, `${path}.must_not`);
  const filter = clauseList(o.filter, mapping, analyzer, `${path}.filter`);
  const msm = o.minimum_should_match;
  let minimumShouldMatch = must.length + filter.length === 0 && should.length > 0 ? 1 : 0;
  if (msm !== undefined) {
    if (typeof msm !== 'number' || !Number.isInteger(msm) || msm < 0) {
      throw invalid(`${path}.minimum_should_match`, `expected a non-negative integer, got ${JSON.stringify(msm)}`);
    }
    minimumShouldMatch = msm;
  }
  return { kind: 'bool', must, should, mustNot, filter, minimumShouldMatch, boost: optionalNumber(o, 'boost', path) ?? 1 };
}

/** A clause list: an array of queries, or a single query object (as Elasticsearch accepts). */
function clauseList(v: unknown, mapping: Mapping, analyzer: AnalyzerOf, path: string): Query[] {
  if (v === undefined) return [];
  const list = Array.isArray(v) ? v : [v];
  return list.map((q, i) => parseQuery(q, mapping, analyzer, Array.isArray(v) ? `${path}[${i}]` : path));
}

function parsePhrase(body: unknown, mapping: Mapping, analyzer: AnalyzerOf, path: string): PhraseQuery {
  const [field, spec] = singleKey(body, path);
  let text: unknown = spec;
  let slop = 0;
  let boost = 1;
  if (typeof spec === 'object' && spec !== null && !Array.isArray(spec)) {
    const o = spec as Record<string, unknown>;
    checkKeys(o, ['query', 'slop', 'boost'], `${path}.${field}`);
    text = o.query;
    slop = optionalNumber(o, 'slop', `${path}.${field}`) ?? 0;
    boost = optionalNumber(o, 'boost', `${path}.${field}`) ?? 1;
  }
  if (typeof text !== 'string') throw invalid(`${path}.${field}.query`, `expected a string, got ${typeName(text)}`);
  const mapped = searchableField(field, mapping, path);
  const terms: string[] = [];
  const positions: number[] = [];
  analyzer(mapped.analyzer).analyze(text, (term, position) => {
    terms.push(term);
    positions.push(position);
  });
  const base = positions[0] ?? 0;
  return { kind: 'phrase', field, terms, positions: positions.map((p) => p - base), slop: Math.floor(slop), boost };
}

function parseMultiTerm(type: 'prefix' | 'fuzzy', body: unknown, mapping: Mapping, path: string): MultiTermQuery {
  const [field, spec] = singleKey(body, path);
  let value: unknown = spec;
  let fuzziness: unknown = 'AUTO';
  let maxExpansions = 50;
  let boost = 1;
  if (typeof spec === 'object' && spec !== null && !Array.isArray(spec)) {
    const o = spec as Record<string, unknown>;
    checkKeys(o, type === 'fuzzy' ? ['value', 'fuzziness', 'max_expansions', 'boost'] : ['value', 'boost'], `${path}.${field}`);
    value = o.value;
    fuzziness = o.fuzziness ?? 'AUTO';
    maxExpansions = optionalNumber(o, 'max_expansions', `${path}.${field}`) ?? 50;
    boost = optionalNumber(o, 'boost', `${path}.${field}`) ?? 1;
  }
  if (typeof value !== 'string' || value === '') throw invalid(`${path}.${field}.value`, `expected a non-empty string, got ${typeName(value)}`);
  searchableField(field, mapping, path);
  // Like Elasticsearch, the value is not analyzed; it is lowercased to meet the analyzed terms.
  const lower = value.toLowerCase();
  let edits = 0;
  if (type === 'fuzzy') {
    if (fuzziness === 'AUTO' || fuzziness === 'auto') edits = lower.length <= 2 ? 0 : lower.length <= 5 ? 1 : 2;
    else if (fuzziness === 0 || fuzziness === 1 || fuzziness === 2) edits = fuzziness;
    else throw invalid(`${path}.${field}.fuzziness`, `expected 0, 1, 2 or "AUTO", got ${JSON.stringify(fuzziness)}`);
  }
  return { kind: type, field, value: lower, fuzziness: edits, maxExpansions: Math.max(1, Math.floor(maxExpansions)), boost };
}

/** `knn: { field, query_vector, k?, num_candidates?, boost? }` over a semantic field. */
export function parseKnn(body: unknown, mapping: Mapping, path: string): KnnQuery {
  const o = objectOf(body, path);
  checkKeys(o, ['field', 'query_vector', 'k', 'num_candidates', 'boost'], path);
  if (typeof o.field !== 'string') throw invalid(`${path}.field`, `expected a field name, got ${typeName(o.field)}`);
  const field = o.field;
  const semantic = semanticField(field, mapping, path);
  const raw = o.query_vector;
  const dims = semantic.dim === null ? 'numbers' : `${semantic.dim} numbers`;
  if (!Array.isArray(raw) || raw.length === 0 || (semantic.dim !== null && raw.length !== semantic.dim)) {
    throw invalid(`${path}.query_vector`, `expected an array of ${dims}, got ${Array.isArray(raw) ? `${raw.length} numbers` : typeName(raw)}`, { field });
  }
  const vector = new Float32Array(raw.length);
  (raw as unknown[]).forEach((x, i) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) throw invalid(`${path}.query_vector[${i}]`, `expected a finite number, got ${typeName(x)}`, { field });
    vector[i] = x;
  });
  const k = optionalCount(o, 'k', path);
  const numCandidates = optionalCount(o, 'num_candidates', path);
  if (k !== null && numCandidates !== null && numCandidates < k) {
    throw invalid(`${path}.num_candidates`, `expected at least k (${k}), got ${numCandidates}`);
  }
  return { kind: 'knn', field, vector, k, numCandidates, boost: optionalNumber(o, 'boost', path) ?? 1 };
}

/** The semantic mapping of a field a knn or semantic query names. */
export function semanticField(field: string, mapping: Mapping, path: string): NonNullable<FieldMapping['semantic']> {
  const mapped = mapping.field(field);
  if (mapped === undefined) throw invalid(path, `field "${field}" is not in the mapping`, { field });
  if (mapped.semantic === null) throw invalid(path, `field "${field}" has no vector index (map it with search: { semantic: ... })`, { field });
  return mapped.semantic;
}

function optionalCount(o: Record<string, unknown>, key: string, path: string): number | null {
  const v = o[key];
  if (v === undefined) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_KNN_CANDIDATES) {
    throw invalid(`${path}.${key}`, `expected an integer from 1 to ${MAX_KNN_CANDIDATES}, got ${JSON.stringify(v)}`);
  }
  return v;
}

function searchableField(field: string, mapping: Mapping, path: string): { analyzer: string } {
  const mapped = mapping.field(field);
  if (mapped === undefined) throw invalid(path, `field "${field}" is not in the mapping`, { field });
  if (mapped.analyzer === null) {
    throw invalid(path, `field "${field}" is not searchable (type ${mapped.type}, search disabled)`, { field });
  }
  return { analyzer: mapped.analyzer };
}

function parseMatch(body: unknown, mapping: Mapping, analyzer: (name: string) => Analyzer, path: string): Query {
  const [field, spec] = singleKey(body, path);
  let text: unknown = spec;
  let operator: 'or' | 'and' = 'or';
  let boost = 1;
  if (typeof spec === 'object' && spec !== null && !Array.isArray(spec)) {
    const o = spec as Record<string, unknown>;
    checkKeys(o, ['query', 'operator', 'boost'], `${path}.${field}`);
    text = o.query;
    operator = parseOperator(o.operator, `${path}.${field}.operator`);
    boost = optionalNumber(o, 'boost', `${path}.${field}`) ?? 1;
  }
  if (typeof text !== 'string') throw invalid(`${path}.${field}.query`, `expected a string, got ${typeName(text)}`);
  return fieldTerms(field, text, operator, boost, mapping, analyzer, path);
}

function parseMultiMatch(body: unknown, mapping: Mapping, analyzer: (name: string) => Analyzer, path: string): Query {
  const o = objectOf(body, path);
  checkKeys(o, ['query', 'fields', 'type', 'operator', 'tie_breaker', 'boost'], path);
  if (typeof o.query !== 'string') throw invalid(`${path}.query`, `expected a string, got ${typeName(o.query)}`);
  const text = o.query;
  const operator = parseOperator(o.operator, `${path}.operator`);
  const boost = optionalNumber(o, 'boost', path) ?? 1;
  const tieBreaker = optionalNumber(o, 'tie_breaker', path) ?? 0;
  const type = o.type ?? 'best_fields';
  if (type !== 'best_fields' && type !== 'most_fields' && type !== 'cross_fields' && type !== 'combined_fields') {
    throw invalid(`${path}.type`, `expected best_fields, most_fields, cross_fields or combined_fields, got ${JSON.stringify(type)}`);
  }
  let fields: string[];
  if (o.fields === undefined) {
    fields = mapping.fields.filter((f) => f.analyzer !== null).map((f) => f.name);
  } else if (Array.isArray(o.fields) && o.fields.every((f) => typeof f === 'string')) {
    fields = o.fields;
  } else {
    throw invalid(`${path}.fields`, `expected an array of field names, got ${typeName(o.fields)}`);
  }
  if (type === 'cross_fields' || type === 'combined_fields') {
    const crossFields = fields.map((spec) => {
      const [field, fieldBoost] = splitBoost(spec, `${path}.fields`);
      return { field, boost: fieldBoost, analyzer: analyzer(searchableField(field, mapping, path).analyzer) };
    });
    return crossFieldsQuery(crossFields, text, operator, boost, tieBreaker);
  }
  const clauses = fields.map((spec) => {
    const [field, fieldBoost] = splitBoost(spec, `${path}.fields`);
    return fieldTerms(field, text, operator, boost * fieldBoost, mapping, analyzer, path);
  });
  if (clauses.length === 1) return clauses[0];
  return { kind: type === 'best_fields' ? 'dis_max' : 'sum', clauses, tieBreaker };
}

function fieldTerms(
  field: string,
  text: string,
  operator: 'or' | 'and',
  boost: number,
  mapping: Mapping,
  analyzer: (name: string) => Analyzer,
  path: string,
): FieldTermsQuery {
  // A wildcard name would match no indexed field and silently find nothing: say so instead.
  if (field.includes('*')) throw invalid(path, `field "${field}": wildcard field names are not expanded in queries yet; name the fields`, { field });
  const mapped = mapping.field(field);
  if (mapped === undefined) throw invalid(path, `field "${field}" is not in the mapping`, { field });
  if (mapped.analyzer === null) {
    throw invalid(path, `field "${field}" is not searchable (type ${mapped.type}, search disabled)`, { field });
  }
  const terms: string[] = [];
  analyzer(mapped.analyzer).analyze(text, (term) => terms.push(term));
  return { kind: 'terms', field, terms, operator, boost };
}

function splitBoost(spec: string, path: string): [string, number] {
  const caret = spec.lastIndexOf('^');
  if (caret < 0) return [spec, 1];
  const boost = Number(spec.slice(caret + 1));
  if (!Number.isFinite(boost) || boost < 0) throw invalid(path, `bad boost in "${spec}"`);
  return [spec.slice(0, caret), boost];
}

function parseOperator(v: unknown, path: string): 'or' | 'and' {
  if (v === undefined) return 'or';
  if (typeof v === 'string') {
    const lower = v.toLowerCase();
    if (lower === 'or' || lower === 'and') return lower;
  }
  throw invalid(path, `expected "or" or "and", got ${JSON.stringify(v)}`);
}

function singleKey(json: unknown, path: string): [string, unknown] {
  const o = objectOf(json, path);
  const keys = Object.keys(o);
  if (keys.length !== 1) throw invalid(path, `expected an object with exactly one key, got ${keys.length} keys`);
  return [keys[0], o[keys[0]]];
}

function objectOf(json: unknown, path: string): Record<string, unknown> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw invalid(path, `expected an object, got ${typeName(json)}`);
  }
  return json as Record<string, unknown>;
}

function optionalNumber(o: Record<string, unknown>, key: string, path: string): number | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    throw invalid(`${path}.${key}`, `expected a non-negative number, got ${typeName(v)}`);
  }
  return v;
}

function checkKeys(o: Record<string, unknown>, allowed: readonly string[], path: string): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) throw invalid(`${path}.${k}`, `unknown key; expected one of ${allowed.join(', ')}`);
  }
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** A 400-class error naming the request path. */
export function invalid(path: string, reason: string, details: Record<string, unknown> = {}): YarrowError {
  return new YarrowError(ErrorCode.invalidQuery, `${path}: ${reason}`, { path, ...details });
}
