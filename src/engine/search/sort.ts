/**
 * Sorting by `_score`, `_doc` or any `sort: true` field (asc/desc, missing first/last), on several
 * keys. Ties after all keys are broken by `_id`, so the order is total and stable across segments,
 * merges and refreshes — which is what makes `search_after` deep paging exact.
 */
import type { Mapping } from '../schema/mapping.js';
import type { SegmentReader } from '../segment/segment-reader.js';
import { invalid } from './query.js';

/** One sort key. `order` is 1 for ascending, -1 for descending. */
export interface SortKey {
  readonly by: 'score' | 'doc' | 'field';
  readonly field: string;
  readonly order: 1 | -1;
  readonly missing: 'first' | 'last';
}

/** A sort value: a number, a string (keyword fields), or null when the doc has no value. */
export type SortValue = number | string | null;

/** Parses the request's `sort` array. */
export function parseSort(json: unknown, mapping: Mapping, path = 'sort'): SortKey[] {
  const list: unknown[] = Array.isArray(json) ? (json as unknown[]) : [json];
  return list.map((entry, i) => {
    const at = `${path}[${i}]`;
    if (typeof entry === 'string') return key(entry, undefined, mapping, at);
    if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
      const keys = Object.keys(entry);
      if (keys.length !== 1) throw invalid(at, `expected one field per sort entry, got ${keys.length}`);
      return key(keys[0], (entry as Record<string, unknown>)[keys[0]], mapping, at);
    }
    throw invalid(at, `expected a field name or {field: {order, missing}}`);
  });
}

function key(name: string, spec: unknown, mapping: Mapping, path: string): SortKey {
  let order: unknown = undefined;
  let missing: unknown = undefined;
  if (typeof spec === 'string') order = spec;
  else if (typeof spec === 'object' && spec !== null) {
    const o = spec as Record<string, unknown>;
    for (const k of Object.keys(o)) if (k !== 'order' && k !== 'missing') throw invalid(`${path}.${name}.${k}`, 'unknown key; expected order or missing');
    order = o.order;
    missing = o.missing;
  } else if (spec !== undefined) throw invalid(`${path}.${name}`, 'expected "asc", "desc" or {order, missing}');
  const by = name === '_score' ? 'score' : name === '_doc' ? 'doc' : 'field';
  if (by === 'field') {
    const field = mapping.field(name);
    if (field === undefined) throw invalid(path, `field "${name}" is not in the mapping`, { field: name });
    if (!field.sort) throw invalid(path, `field "${name}" is not sortable: mark it sort: true in the mapping`, { field: name });
  }
  // `default` (Nixiesearch 0.8) is the key's natural order: best score first, smallest value first.
  if (order === 'default') order = undefined;
  if (order !== undefined && order !== 'asc' && order !== 'desc') throw invalid(`${path}.${name}.order`, `expected "asc", "desc" or "default", got ${JSON.stringify(order)}`);
  if (missing !== undefined && missing !== 'first' && missing !== 'last' && missing !== '_first' && missing !== '_last') {
    throw invalid(`${path}.${name}.missing`, `expected "first" or "last", got ${JSON.stringify(missing)}`);
  }
  const dflt = by === 'score' ? 'desc' : 'asc';
  return {
    by,
    field: name,
    order: (order ?? dflt) === 'asc' ? 1 : -1,
    missing: missing === 'first' || missing === '_first' ? 'first' : 'last',
  };
}

/**
 * A reader of one field's sort value per doc of a segment (the column is resolved once): the
 * smallest value ascending, the largest descending, null when the doc has none.
 */
export function fieldSortValues(reader: SegmentReader, key: SortKey): (doc: number) => SortValue {
  const col = reader.docValues.column(key.field);
  if (col === undefined) return () => null;
  if (col.kind === 'numeric') {
    const { offsets, values } = col;
    return (doc) => {
      const start = offsets[doc];
      const end = offsets[doc + 1];
      if (start === end) return null;
      let v = values[start];
      for (let i = start + 1; i < end; i++) v = key.order === 1 ? Math.min(v, values[i]) : Math.max(v, values[i]);
      return v;
    };
  }
  const { offsets, ords, dictionary } = col;
  // Ordinals are sorted within a doc: the first is the smallest.
  return (doc) => (offsets[doc] === offsets[doc + 1] ? null : dictionary[key.order === 1 ? ords[offsets[doc]] : ords[offsets[doc + 1] - 1]]);
}

/** Compares two sort values under a key (missing values placed per `missing`, whatever the order). */
export function compareValues(a: SortValue, b: SortValue, key: SortKey): number {
  if (a === b) return 0;
  if (a === null) return key.missing === 'first' ? -1 : 1;
  if (b === null) return key.missing === 'first' ? 1 : -1;
  return (a < b ? -1 : 1) * key.order;
}

/** A sorted hit: its sort values (one per key), then `_id` as the final tiebreak. */
export interface SortedHit {
  readonly doc: number;
  readonly score: number;
  readonly values: readonly SortValue[];
  readonly id: string;
}

/** Total order of sorted hits: keys in turn, then `_id`. */
export function compareHits(a: SortedHit, b: SortedHit, keys: readonly SortKey[]): number {
  for (let i = 0; i < keys.length; i++) {
    const c = compareValues(a.values[i], b.values[i], keys[i]);
    if (c !== 0) return c;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Parses `search_after`: the `_sort` array of the last hit of the previous page (one value per
 * key, then the `_id`).
 */
export function parseSearchAfter(json: unknown, keys: readonly SortKey[], path = 'search_after'): { values: SortValue[]; id: string } {
  if (!Array.isArray(json) || json.length !== keys.length + 1) {
    throw invalid(path, `expected the _sort array of a hit: ${keys.length} sort values followed by the _id`);
  }
  const given = json as unknown[];
  const values = given.slice(0, keys.length).map((v, i): SortValue => {
    if (v === null || typeof v === 'number' || typeof v === 'string') return v;
    throw invalid(`${path}[${i}]`, `expected a number, string or null, got ${typeof v}`);
  });
  const id = given[keys.length];
  if (typeof id !== 'string') throw invalid(`${path}[${keys.length}]`, 'expected the _id string');
  return { values, id };
}

/** Keeps the best `k` sorted hits (a bounded binary heap whose root is the worst kept hit). */
export class SortedCollector {
  private readonly heap: SortedHit[] = [];

  constructor(
    readonly k: number,
    private readonly keys: readonly SortKey[],
  ) {}

  /**
   * Whether a hit with these sort values could enter the heap: a cheap check before building the
   * hit object, so docs that cannot compete cost no allocation. `id` is asked only on a full tie.
   */
  competitive(values: readonly SortValue[], id: () => string): boolean {
    if (this.heap.length < this.k) return this.k > 0;
    const worst = this.heap[0];
    for (let i = 0; i < this.keys.length; i++) {
      const c = compareValues(values[i], worst.values[i], this.keys[i]);
      if (c !== 0) return c < 0;
    }
    return id() < worst.id;
  }

  /** Adds a hit, evicting the worst kept one when full. */
  offer(hit: SortedHit): void {
    const heap = this.heap;
    if (this.k === 0) return;
    if (heap.length < this.k) {
      heap.push(hit);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (compareHits(heap[i], heap[parent], this.keys) <= 0) break;
        [heap[i], heap[parent]] = [heap[parent], heap[i]];
        i = parent;
      }
      return;
    }
    if (compareHits(hit, heap[0], this.keys) >= 0) return;
    heap[0] = hit;
    let i = 0;
    while (true) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < heap.length && compareHits(heap[l], heap[worst], this.keys) > 0) worst = l;
      if (r < heap.length && compareHits(heap[r], heap[worst], this.keys) > 0) worst = r;
      if (worst === i) break;
      [heap[i], heap[worst]] = [heap[worst], heap[i]];
      i = worst;
    }
  }

  /** The kept hits in sort order. */
  results(): SortedHit[] {
    return [...this.heap].sort((a, b) => compareHits(a, b, this.keys));
  }
}
