/**
 * Writes the doc values (`.dvd`) file: per field, a column of the values of every doc, for
 * filtering, sorting and faceting.
 *
 * Byte layout (after the header `Ydvd`, version 1; footer from file-format.ts):
 *   varint  maxDoc
 *   varint  column count
 *   per column (directory, so readers can decode columns lazily):
 *     string field, byte kind (0 numeric, 1 keyword), varint byte length of its data
 *   column data, in directory order:
 *     byte    arity: 0 = every doc has exactly one value (no counts stored)
 *                    1 = per-doc value counts follow, as a packed array (packed-array.ts)
 *     numeric:
 *       byte  values encoding: 0 = float64 LE each
 *                              1 = integers: zigzag min, varint gcd, packed array of (v-min)/gcd
 *     keyword:
 *       varint dictionary size; per term: varint UTF-16 units shared with the previous term,
 *              string the rest
 *       packed array of ordinals
 */
import { writePackedArray } from '../bitpacking/packed-array.js';
import { ByteWriter } from '../bytes/byte-writer.js';
import { writeFooter, writeHeader } from '../file-format.js';

export const DOC_VALUES_MAGIC = 'Ydvd';
export const DOC_VALUES_VERSION = 1;
export const ColumnKind = { numeric: 0, keyword: 1 } as const;
export const Arity = { single: 0, counted: 1 } as const;
export const NumericEncoding = { float64: 0, integer: 1 } as const;

/** Numbers of a field, doc by doc. */
export interface NumericColumn {
  readonly kind: 'numeric';
  readonly field: string;
  /** values of doc d are values[offsets[d] .. offsets[d+1]); length maxDoc+1 */
  readonly offsets: Uint32Array;
  readonly values: Float64Array;
}

/** Keywords of a field, doc by doc, as ordinals into a sorted dictionary. */
export interface KeywordColumn {
  readonly kind: 'keyword';
  readonly field: string;
  /** sorted ascending (by UTF-16 code unit order, i.e. JS `<`), unique */
  readonly dictionary: readonly string[];
  /** ords of doc d are ords[offsets[d] .. offsets[d+1]); length maxDoc+1 */
  readonly offsets: Uint32Array;
  /** ordinals into dictionary, sorted ascending within each doc */
  readonly ords: Uint32Array;
}

export type DocValuesColumn = NumericColumn | KeywordColumn;

/**
 * Encodes `columns` (each covering docs 0..maxDoc) as a whole `.dvd` file. Keywords must be
 * well-formed UTF-16: a lone surrogate would come back as U+FFFD.
 */
export function encodeDocValues(columns: readonly DocValuesColumn[], maxDoc: number): Uint8Array {
  const seen = new Set<string>();
  const bodies: Uint8Array[] = [];
  for (const col of columns) {
    if (seen.has(col.field)) throw new RangeError(`duplicate doc values column ${col.field}`);
    seen.add(col.field);
    checkOffsets(col, maxDoc);
    const w = new ByteWriter(1024);
    writeArity(w, col.offsets, maxDoc);
    if (col.kind === 'numeric') writeNumbers(w, col.values);
    else writeKeywords(w, col);
    bodies.push(w.view());
  }
  const out = new ByteWriter(64 + bodies.reduce((n, b) => n + b.length, 0));
  writeHeader(out, DOC_VALUES_MAGIC, DOC_VALUES_VERSION);
  out.writeVarint(maxDoc);
  out.writeVarint(columns.length);
  columns.forEach((col, i) => {
    out.writeString(col.field);
    out.writeByte(col.kind === 'numeric' ? ColumnKind.numeric : ColumnKind.keyword);
    out.writeVarint(bodies[i].length);
  });
  for (const body of bodies) out.writeBytes(body);
  writeFooter(out);
  return out.toBytes();
}

function checkOffsets(col: DocValuesColumn, maxDoc: number): void {
  const { offsets } = col;
  const n = col.kind === 'numeric' ? col.values.length : col.ords.length;
  if (offsets.length !== maxDoc + 1 || offsets[0] !== 0 || offsets[maxDoc] !== n) {
    throw new RangeError(`column ${col.field}: offsets must have maxDoc+1 = ${maxDoc + 1} entries from 0 to ${n}`);
  }
  for (let d = 0; d < maxDoc; d++) {
    if (offsets[d + 1] < offsets[d]) throw new RangeError(`column ${col.field}: offsets decrease at doc ${d}`);
  }
}

function writeArity(w: ByteWriter, offsets: Uint32Array, maxDoc: number): void {
  if (offsets[maxDoc] === maxDoc && isIdentity(offsets)) {
    w.writeByte(Arity.single);
    return;
  }
  w.writeByte(Arity.counted);
  const counts = new Uint32Array(maxDoc);
  for (let d = 0; d < maxDoc; d++) counts[d] = offsets[d + 1] - offsets[d];
  writePackedArray(w, counts, maxDoc);
}

function isIdentity(offsets: Uint32Array): boolean {
  for (let d = 0; d < offsets.length; d++) if (offsets[d] !== d) return false;
  return true;
}

function writeNumbers(w: ByteWriter, values: Float64Array): void {
  const plan = integerPlan(values);
  if (plan === null) {
    w.writeByte(NumericEncoding.float64);
    for (const v of values) w.writeFloat64(v);
    return;
  }
  w.writeByte(NumericEncoding.integer);
  w.writeZigzag(plan.min);
  w.writeVarint(plan.gcd);
  const q = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) q[i] = (values[i] - plan.min) / plan.gcd;
  writePackedArray(w, q, values.length);
}

/**
 * Integers (timestamps, counts, prices in cents) pack as (v - min) / gcd when that fits in 32
 * bits; the gcd catches e.g. millisecond timestamps that are whole seconds.
 */
function integerPlan(values: Float64Array): { min: number; gcd: number } | null {
  if (values.length === 0) return null;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (!Number.isSafeInteger(v) || Object.is(v, -0)) return null;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!Number.isSafeInteger(max - min)) return null;
  let gcd = 0;
  for (const v of values) {
    gcd = greatestCommonDivisor(gcd, v - min);
    if (gcd === 1) break;
  }
  if (gcd === 0) gcd = 1;
  return (max - min) / gcd <= 0xffff_ffff ? { min, gcd } : null;
}

function greatestCommonDivisor(a: number, b: number): number {
  while (b !== 0) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

function writeKeywords(w: ByteWriter, col: KeywordColumn): void {
  const dict = col.dictionary;
  w.writeVarint(dict.length);
  let prev = '';
  for (let i = 0; i < dict.length; i++) {
    const term = dict[i];
    if (i > 0 && !(prev < term)) throw new RangeError(`column ${col.field}: dictionary is not sorted and unique at ${i}`);
    let shared = 0;
    const limit = Math.min(prev.length, term.length);
    while (shared < limit && prev.charCodeAt(shared) === term.charCodeAt(shared)) shared++;
    // Never split a surrogate pair: each half alone would not survive UTF-8.
    if (shared > 0 && isHighSurrogate(term.charCodeAt(shared - 1))) shared--;
    w.writeVarint(shared);
    w.writeString(term.slice(shared));
    prev = term;
  }
  const { ords } = col;
  for (let i = 0; i < ords.length; i++) {
    if (ords[i] >= dict.length) throw new RangeError(`column ${col.field}: ordinal ${ords[i]} out of range`);
  }
  writePackedArray(w, ords, ords.length);
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
