import { readPackedArray } from '../bitpacking/packed-array.js';
import { ByteReader } from '../bytes/byte-reader.js';
import { openChecked } from '../file-format.js';
import { ErrorCode, YarrowError } from '../../errors.js';
import { Arity, ColumnKind, DOC_VALUES_MAGIC, DOC_VALUES_VERSION, NumericEncoding } from './doc-values-writer.js';
import type { DocValuesColumn, KeywordColumn, NumericColumn } from './doc-values-writer.js';

/** The columns of one `.dvd` file. */
export interface DocValuesReader {
  /** Field names, in file order. */
  readonly fields: readonly string[];
  /** The column of `field`, decoded on first use; undefined when the file has none. */
  column(field: string): DocValuesColumn | undefined;
}

interface ColumnEntry {
  readonly field: string;
  readonly kind: number;
  readonly start: number;
  readonly end: number;
  decoded: DocValuesColumn | null;
}

/**
 * Verifies the checksum of a `.dvd` file and reads its column directory; each column is decoded
 * into its in-memory shape the first time it is asked for, then kept.
 */
export function decodeDocValues(bytes: Uint8Array, fileName: string): DocValuesReader {
  const { reader, bodyEnd } = openChecked(bytes, fileName, DOC_VALUES_MAGIC, DOC_VALUES_VERSION);
  const maxDoc = reader.readVarint();
  const count = reader.readVarint();
  const entries = new Map<string, ColumnEntry>();
  const pending: { field: string; kind: number; length: number }[] = [];
  for (let i = 0; i < count; i++) {
    const field = reader.readString();
    const kind = reader.readByte();
    if (kind !== ColumnKind.numeric && kind !== ColumnKind.keyword) throw corrupt(fileName, field, `unknown column kind ${kind}`);
    pending.push({ field, kind, length: reader.readVarint() });
  }
  let start = reader.pos;
  for (const { field, kind, length } of pending) {
    entries.set(field, { field, kind, start, end: start + length, decoded: null });
    start += length;
  }
  if (start !== bodyEnd) throw corrupt(fileName, undefined, 'column lengths do not add up to the file size');
  const fields = pending.map((p) => p.field);
  return {
    fields,
    column(field: string): DocValuesColumn | undefined {
      const entry = entries.get(field);
      if (entry === undefined) return undefined;
      entry.decoded ??= decodeColumn(bytes, fileName, entry, maxDoc);
      return entry.decoded;
    },
  };
}

function decodeColumn(bytes: Uint8Array, fileName: string, entry: ColumnEntry, maxDoc: number): DocValuesColumn {
  const r = new ByteReader(bytes.subarray(0, entry.end), entry.start);
  const offsets = readOffsets(r, maxDoc, fileName, entry.field);
  const n = offsets[maxDoc];
  const column = entry.kind === ColumnKind.numeric ? readNumeric(r, entry.field, offsets, n, fileName) : readKeyword(r, entry.field, offsets, n, fileName);
  if (r.pos !== entry.end) throw corrupt(fileName, entry.field, 'column data has trailing bytes');
  return column;
}

function readOffsets(r: ByteReader, maxDoc: number, fileName: string, field: string): Uint32Array {
  const arity = r.readByte();
  const offsets = new Uint32Array(maxDoc + 1);
  if (arity === Arity.single) {
    for (let d = 0; d <= maxDoc; d++) offsets[d] = d;
  } else if (arity === Arity.counted) {
    const counts = new Uint32Array(maxDoc);
    readPackedArray(r, maxDoc, counts);
    let sum = 0;
    for (let d = 0; d < maxDoc; d++) {
      sum += counts[d];
      offsets[d + 1] = sum;
    }
    if (sum > 0xffff_ffff) throw corrupt(fileName, field, 'value count overflows');
  } else {
    throw corrupt(fileName, field, `unknown arity ${arity}`);
  }
  return offsets;
}

function readNumeric(r: ByteReader, field: string, offsets: Uint32Array, n: number, fileName: string): NumericColumn {
  const values = new Float64Array(n);
  const encoding = r.readByte();
  if (encoding === NumericEncoding.float64) {
    for (let i = 0; i < n; i++) values[i] = r.readFloat64();
  } else if (encoding === NumericEncoding.integer) {
    const min = r.readZigzag();
    const gcd = r.readVarint();
    const q = new Uint32Array(n);
    readPackedArray(r, n, q);
    for (let i = 0; i < n; i++) values[i] = min + q[i] * gcd;
  } else {
    throw corrupt(fileName, field, `unknown numeric encoding ${encoding}`);
  }
  return { kind: 'numeric', field, offsets, values };
}

function readKeyword(r: ByteReader, field: string, offsets: Uint32Array, n: number, fileName: string): KeywordColumn {
  const size = r.readVarint();
  const dictionary: string[] = new Array<string>(size);
  let prev = '';
  for (let i = 0; i < size; i++) {
    const shared = r.readVarint();
    if (shared > prev.length) throw corrupt(fileName, field, `term ${i} shares more than the previous term has`);
    prev = prev.slice(0, shared) + r.readString();
    dictionary[i] = prev;
  }
  const ords = new Uint32Array(n);
  readPackedArray(r, n, ords);
  for (let i = 0; i < n; i++) if (ords[i] >= size) throw corrupt(fileName, field, `ordinal ${ords[i]} out of range`);
  return { kind: 'keyword', field, dictionary, offsets, ords };
}

function corrupt(fileName: string, field: string | undefined, what: string): YarrowError {
  const where = field === undefined ? fileName : `${fileName} (column ${field})`;
  return new YarrowError(ErrorCode.corruptIndex, `${where}: ${what}`, field === undefined ? { source: fileName } : { source: fileName, field });
}
