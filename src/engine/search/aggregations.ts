/**
 * Aggregations over every matching document (not only the returned page), in Nixiesearch's shape:
 * `term` (the top values of a field with their doc counts, `size` N or "all") and `range` (doc
 * counts per numeric range). Each doc counts once per bucket, however many values it has.
 */
import type { FieldMapping, Mapping } from '../schema/mapping.js';
import type { SegmentReader } from '../segment/segment-reader.js';
import { invalid } from './query.js';

export type Aggregation =
  | { readonly kind: 'term'; readonly name: string; readonly field: FieldMapping; readonly size: number }
  | { readonly kind: 'range'; readonly name: string; readonly field: FieldMapping; readonly ranges: readonly RangeBucketSpec[] };

/** One requested range: any of gt/gte/lt/lte (open on the missing sides). */
export interface RangeBucketSpec {
  readonly gt?: number;
  readonly gte?: number;
  readonly lt?: number;
  readonly lte?: number;
}

export interface TermBucket {
  readonly term: string | number | boolean;
  readonly count: number;
}
export type RangeBucket = RangeBucketSpec & { readonly count: number };
export type AggregationResult = { readonly buckets: readonly TermBucket[] } | { readonly buckets: readonly RangeBucket[] };

/** Parses the request's `aggs` object. */
export function parseAggregations(json: unknown, mapping: Mapping, path = 'aggs'): Aggregation[] {
  if (json === undefined || json === null) return [];
  const o = object(json, path);
  return Object.entries(o).map(([name, spec]) => {
    const at = `${path}.${name}`;
    const s = object(spec, at);
    const keys = Object.keys(s);
    if (keys.length !== 1 || (keys[0] !== 'term' && keys[0] !== 'range')) throw invalid(at, 'expected exactly one of term, range');
    const type = keys[0];
    const body = object(s[type], `${at}.${type}`);
    const fieldName = body.field;
    if (typeof fieldName !== 'string') throw invalid(`${at}.${type}.field`, 'expected a field name');
    const field = mapping.field(fieldName);
    if (field === undefined) throw invalid(`${at}.${type}.field`, `field "${fieldName}" is not in the mapping`, { field: fieldName });
    if (!field.facet) throw invalid(`${at}.${type}.field`, `field "${fieldName}" is not facetable: mark it facet: true in the mapping`, { field: fieldName });
    if (type === 'term') {
      for (const k of Object.keys(body)) if (k !== 'field' && k !== 'size') throw invalid(`${at}.term.${k}`, 'unknown key; expected field or size');
      const size = body.size ?? 10;
      if (size !== 'all' && (typeof size !== 'number' || !Number.isInteger(size) || size < 1)) {
        throw invalid(`${at}.term.size`, `expected a positive integer or "all", got ${JSON.stringify(size)}`);
      }
      return { kind: 'term', name, field, size: size === 'all' ? Infinity : size } as const;
    }
    for (const k of Object.keys(body)) if (k !== 'field' && k !== 'ranges') throw invalid(`${at}.range.${k}`, 'unknown key; expected field or ranges');
    if (field.baseType === 'text' || field.baseType === 'id' || field.baseType === 'bool') {
      throw invalid(`${at}.range.field`, `range needs a numeric, date or datetime field; "${fieldName}" is ${field.type}`, { field: fieldName });
    }
    if (!Array.isArray(body.ranges) || body.ranges.length === 0) throw invalid(`${at}.range.ranges`, 'expected a non-empty array of ranges');
    const ranges = body.ranges.map((r, i) => {
      const spec = object(r, `${at}.range.ranges[${i}]`);
      const out: { gt?: number; gte?: number; lt?: number; lte?: number } = {};
      for (const [k, v] of Object.entries(spec)) {
        if (k !== 'gt' && k !== 'gte' && k !== 'lt' && k !== 'lte') throw invalid(`${at}.range.ranges[${i}].${k}`, 'unknown bound; expected gt, gte, lt or lte');
        if (typeof v !== 'number') throw invalid(`${at}.range.ranges[${i}].${k}`, `expected a number, got ${typeof v}`);
        out[k] = v;
      }
      return out;
    });
    return { kind: 'range', name, field, ranges } as const;
  });
}

/** Accumulates aggregation counts segment by segment. */
export class AggregationCollector {
  private readonly terms = new Map<string, Map<string | number, number>>();
  private readonly ranges = new Map<string, number[]>();

  constructor(private readonly aggs: readonly Aggregation[]) {
    for (const a of aggs) {
      if (a.kind === 'term') this.terms.set(a.name, new Map());
      else this.ranges.set(a.name, a.ranges.map(() => 0));
    }
  }

  /** Counts the matching docs `docs[0..count)` of one segment. */
  collect(reader: SegmentReader, docs: Int32Array, count: number): void {
    for (const agg of this.aggs) {
      const col = reader.docValues.column(agg.field.name);
      if (col === undefined) continue;
      if (agg.kind === 'term') {
        const counts = this.terms.get(agg.name)!;
        if (col.kind === 'keyword') {
          const perOrd = new Uint32Array(col.dictionary.length);
          for (let i = 0; i < count; i++) {
            const d = docs[i];
            let previous = -1;
            for (let k = col.offsets[d]; k < col.offsets[d + 1]; k++) {
              const ord = col.ords[k];
              if (ord !== previous) perOrd[ord]++;
              previous = ord;
            }
          }
          for (let ord = 0; ord < perOrd.length; ord++) {
            if (perOrd[ord] > 0) counts.set(col.dictionary[ord], (counts.get(col.dictionary[ord]) ?? 0) + perOrd[ord]);
          }
        } else {
          for (let i = 0; i < count; i++) {
            const d = docs[i];
            const seen = new Set<number>();
            for (let k = col.offsets[d]; k < col.offsets[d + 1]; k++) seen.add(col.values[k]);
            for (const v of seen) counts.set(v, (counts.get(v) ?? 0) + 1);
          }
        }
      } else if (col.kind === 'numeric') {
        const buckets = this.ranges.get(agg.name)!;
        for (let i = 0; i < count; i++) {
          const d = docs[i];
          agg.ranges.forEach((r, b) => {
            for (let k = col.offsets[d]; k < col.offsets[d + 1]; k++) {
              if (inRange(col.values[k], r)) {
                buckets[b]++;
                return;
              }
            }
          });
        }
      }
    }
  }

  /** The results by aggregation name. */
  results(): Record<string, AggregationResult> {
    const out: Record<string, AggregationResult> = {};
    for (const agg of this.aggs) {
      if (agg.kind === 'term') {
        const entries = [...this.terms.get(agg.name)!.entries()];
        entries.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        const bool = agg.field.baseType === 'bool';
        out[agg.name] = { buckets: entries.slice(0, agg.size).map(([term, count]) => ({ term: bool ? term === 1 : term, count })) };
      } else {
        const counts = this.ranges.get(agg.name)!;
        out[agg.name] = { buckets: agg.ranges.map((r, i) => ({ ...r, count: counts[i] })) };
      }
    }
    return out;
  }
}

/** Whether `v` lies in the range (missing bounds are open). */
export function inRange(v: number, r: RangeBucketSpec): boolean {
  return (r.gt === undefined || v > r.gt) && (r.gte === undefined || v >= r.gte) && (r.lt === undefined || v < r.lt) && (r.lte === undefined || v <= r.lte);
}

function object(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(path, `expected an object`);
  return v as Record<string, unknown>;
}
