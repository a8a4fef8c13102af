/**
 * Filters (Nixiesearch's `filters.include` / `filters.exclude`): `term`, `terms`, `range`, and
 * `and` / `or` / `not`, evaluated per segment over doc values into a {@link DocBits}. A filter on a
 * field that is not `filter: true` is an error naming the field.
 */
import { parseIsoDate, parseIsoDateTime } from '../schema/date-time.js';
import type { FieldMapping, Mapping } from '../schema/mapping.js';
import type { SegmentReader } from '../segment/segment-reader.js';
import { ID_FIELD } from '../segment/segment-buffer.js';
import { inRange } from './aggregations.js';
import { DocBits } from './doc-set.js';
import { invalid } from './query.js';

/** A parsed filter. Values are normalised to what doc values hold (strings, or numbers). */
export type Filter =
  | { readonly kind: 'term'; readonly field: FieldMapping; readonly values: readonly (string | number)[] }
  | { readonly kind: 'range'; readonly field: FieldMapping; readonly gt?: number; readonly gte?: number; readonly lt?: number; readonly lte?: number }
  | { readonly kind: 'and' | 'or'; readonly filters: readonly Filter[] }
  | { readonly kind: 'not'; readonly filter: Filter };

/** Parses `{ include?, exclude? }` into one filter (include AND NOT exclude), or null when empty. */
export function parseFilters(json: unknown, mapping: Mapping, path = 'filters'): Filter | null {
  if (json === undefined || json === null) return null;
  const o = asObject(json, path);
  for (const k of Object.keys(o)) if (k !== 'include' && k !== 'exclude') throw invalid(`${path}.${k}`, 'unknown key; expected include or exclude');
  const parts: Filter[] = [];
  if (o.include !== undefined) parts.push(parseFilter(o.include, mapping, `${path}.include`));
  if (o.exclude !== undefined) parts.push({ kind: 'not', filter: parseFilter(o.exclude, mapping, `${path}.exclude`) });
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0] : { kind: 'and', filters: parts };
}

/** Parses one filter expression. */
export function parseFilter(json: unknown, mapping: Mapping, path: string): Filter {
  const o = asObject(json, path);
  const keys = Object.keys(o);
  if (keys.length !== 1) throw invalid(path, `expected exactly one of term, terms, range, and, or, not; got ${keys.length} keys`);
  const type = keys[0];
  const body = o[type];
  switch (type) {
    case 'and':
    case 'or': {
      if (!Array.isArray(body) || body.length === 0) throw invalid(`${path}.${type}`, 'expected a non-empty array of filters');
      return { kind: type, filters: body.map((f, i) => parseFilter(f, mapping, `${path}.${type}[${i}]`)) };
    }
    case 'not':
      // Nixiesearch 0.8 writes `not` as a list (none of them may match); a single filter is the same.
      if (Array.isArray(body)) {
        if (body.length === 0) throw invalid(`${path}.not`, 'expected a filter or a non-empty array of filters');
        const filters = body.map((f, i) => parseFilter(f, mapping, `${path}.not[${i}]`));
        return { kind: 'not', filter: filters.length === 1 ? filters[0] : { kind: 'or', filters } };
      }
      return { kind: 'not', filter: parseFilter(body, mapping, `${path}.not`) };
    case 'term':
    case 'terms': {
      const [name, value] = singleField(body, `${path}.${type}`);
      const field = filterField(name, mapping, `${path}.${type}`);
      const raw = type === 'terms' ? value : [value];
      if (!Array.isArray(raw) || raw.length === 0) throw invalid(`${path}.terms.${name}`, 'expected a non-empty array of values');
      return { kind: 'term', field, values: raw.map((v, i) => termValue(field, v, `${path}.${type}.${name}${type === 'terms' ? `[${i}]` : ''}`)) };
    }
    case 'range': {
      const [name, spec] = singleField(body, `${path}.range`);
      const field = filterField(name, mapping, `${path}.range`);
      if (field.baseType === 'text' || field.baseType === 'id' || field.baseType === 'bool') {
        throw invalid(`${path}.range.${name}`, `range needs a numeric, date or datetime field; "${name}" is ${field.type}`, { field: name });
      }
      const bounds = asObject(spec, `${path}.range.${name}`);
      const range: { kind: 'range'; field: FieldMapping; gt?: number; gte?: number; lt?: number; lte?: number } = { kind: 'range', field };
      for (const [k, v] of Object.entries(bounds)) {
        if (k !== 'gt' && k !== 'gte' && k !== 'lt' && k !== 'lte') throw invalid(`${path}.range.${name}.${k}`, 'unknown bound; expected gt, gte, lt or lte');
        range[k] = rangeValue(field, v, `${path}.range.${name}.${k}`);
      }
      return range;
    }
    default:
      throw invalid(path, `unknown filter "${type}"; expected one of term, terms, range, and, or, not`);
  }
}

/** Filter results kept per segment (segments never change): Elasticsearch's query cache idea. */
const FILTER_CACHE_SIZE = 64;
const filterCaches = new WeakMap<SegmentReader, Map<string, DocBits>>();

/**
 * The docs of one segment that pass `filter` (deleted docs are not excluded here). Results are
 * cached per segment by the filter's canonical form; callers must not modify the returned set.
 */
export function filterDocs(filter: Filter, reader: SegmentReader): DocBits {
  let cache = filterCaches.get(reader);
  if (cache === undefined) filterCaches.set(reader, (cache = new Map<string, DocBits>()));
  const key = canonical(filter);
  let bits = cache.get(key);
  if (bits !== undefined) {
    // Refresh its place in the LRU order.
    cache.delete(key);
    cache.set(key, bits);
    return bits;
  }
  bits = evaluateFilter(filter, reader);
  if (cache.size >= FILTER_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, bits);
  return bits;
}

function canonical(f: Filter): string {
  switch (f.kind) {
    case 'term':
      return `term(${f.field.name}:${JSON.stringify(f.values)})`;
    case 'range':
      return `range(${f.field.name}:${f.gt}:${f.gte}:${f.lt}:${f.lte})`;
    case 'and':
    case 'or':
      return `${f.kind}(${f.filters.map(canonical).join(',')})`;
    case 'not':
      return `not(${canonical(f.filter)})`;
  }
}

/** Evaluates a filter over one segment into a fresh set (deleted docs are not excluded here). */
export function evaluateFilter(filter: Filter, reader: SegmentReader): DocBits {
  const maxDoc = reader.maxDoc;
  switch (filter.kind) {
    case 'and': {
      const [first, ...rest] = filter.filters.map((f) => evaluateFilter(f, reader));
      for (const r of rest) first.and(r);
      return first;
    }
    case 'or': {
      const [first, ...rest] = filter.filters.map((f) => evaluateFilter(f, reader));
      for (const r of rest) first.or(r);
      return first;
    }
    case 'not':
      return evaluateFilter(filter.filter, reader).not();
    case 'term':
      return filter.field.name === ID_FIELD ? idBits(filter.values, reader) : termBits(filter.field.name, filter.values, reader, maxDoc);
    case 'range':
      return rangeBits(filter, reader, maxDoc);
  }
}

function idBits(values: readonly (string | number)[], reader: SegmentReader): DocBits {
  const bits = new DocBits(reader.maxDoc);
  for (const v of values) for (const d of reader.docsWithId(String(v))) bits.bits[d] = 1;
  return bits;
}

function termBits(field: string, values: readonly (string | number)[], reader: SegmentReader, maxDoc: number): DocBits {
  const bits = new DocBits(maxDoc);
  const col = reader.docValues.column(field);
  if (col === undefined) return bits;
  if (col.kind === 'keyword') {
    const wanted = new Uint8Array(col.dictionary.length);
    let any = false;
    for (const v of values) {
      const ord = binarySearch(col.dictionary, String(v));
      if (ord >= 0) {
        wanted[ord] = 1;
        any = true;
      }
    }
    if (!any) return bits;
    for (let d = 0; d < maxDoc; d++) {
      for (let i = col.offsets[d]; i < col.offsets[d + 1]; i++) {
        if (wanted[col.ords[i]] === 1) {
          bits.bits[d] = 1;
          break;
        }
      }
    }
    return bits;
  }
  const wanted = new Set(values.map(Number));
  for (let d = 0; d < maxDoc; d++) {
    for (let i = col.offsets[d]; i < col.offsets[d + 1]; i++) {
      if (wanted.has(col.values[i])) {
        bits.bits[d] = 1;
        break;
      }
    }
  }
  return bits;
}

function rangeBits(f: Extract<Filter, { kind: 'range' }>, reader: SegmentReader, maxDoc: number): DocBits {
  const bits = new DocBits(maxDoc);
  const col = reader.docValues.column(f.field.name);
  if (col?.kind !== 'numeric') return bits;
  for (let d = 0; d < maxDoc; d++) {
    for (let i = col.offsets[d]; i < col.offsets[d + 1]; i++) {
      if (inRange(col.values[i], f)) {
        bits.bits[d] = 1;
        break;
      }
    }
  }
  return bits;
}

function filterField(name: string, mapping: Mapping, path: string): FieldMapping {
  const field = mapping.field(name);
  if (field === undefined) throw invalid(path, `field "${name}" is not in the mapping`, { field: name });
  if (!field.filter && name !== ID_FIELD) throw invalid(path, `field "${name}" is not filterable: mark it filter: true in the mapping`, { field: name });
  return field;
}

function termValue(field: FieldMapping, v: unknown, path: string): string | number {
  switch (field.baseType) {
    case 'text':
    case 'id':
      if (typeof v === 'string' || (field.baseType === 'id' && typeof v === 'number')) return String(v);
      break;
    case 'bool':
      if (typeof v === 'boolean') return v ? 1 : 0;
      break;
    default:
      return rangeValue(field, v, path);
  }
  throw invalid(path, `expected a ${field.baseType} value for field "${field.name}", got ${describe(v)}`, { field: field.name, expected: field.baseType, actual: describe(v) });
}

function rangeValue(field: FieldMapping, v: unknown, path: string): number {
  if (field.baseType === 'date' || field.baseType === 'datetime') {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string') {
      const ms = field.baseType === 'date' && v.length === 10 ? parseIsoDate(v) : parseIsoDateTime(v);
      if (!Number.isNaN(ms)) return ms;
    }
    throw invalid(path, `expected a ${field.baseType} (ISO-8601 string or epoch millis) for field "${field.name}", got ${describe(v)}`, { field: field.name, expected: field.baseType, actual: describe(v) });
  }
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  throw invalid(path, `expected a number for field "${field.name}", got ${describe(v)}`, { field: field.name, expected: field.baseType, actual: describe(v) });
}

function singleField(body: unknown, path: string): [string, unknown] {
  const o = asObject(body, path);
  const keys = Object.keys(o);
  if (keys.length !== 1) throw invalid(path, `expected exactly one field, got ${keys.length}`);
  return [keys[0], o[keys[0]]];
}

function asObject(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(path, `expected an object, got ${describe(v)}`);
  return v as Record<string, unknown>;
}

function describe(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** Index of `s` in the sorted `dictionary`, or -1. */
export function binarySearch(dictionary: readonly string[], s: string): number {
  let lo = 0;
  let hi = dictionary.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const m = dictionary[mid];
    if (m === s) return mid;
    if (m < s) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
