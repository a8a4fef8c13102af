/**
 * Reads a `.sgt` file (layout in suggestions-writer.ts): per field, the sorted candidate keys,
 * their display forms and doc counts, with each candidate's docs decoded on demand.
 */
import { ByteReader } from '../bytes/byte-reader.js';
import { openChecked } from '../file-format.js';
import { ErrorCode, YarrowError } from '../../errors.js';
import { DISPLAY_FLAG, SUGGESTIONS_MAGIC, SUGGESTIONS_VERSION } from './suggestions-writer.js';

/** The candidates of one field of one segment, sorted by key. */
export class SuggestionField {
  /** Offset of each candidate's postings (built on the first {@link SuggestionField.docs} call). */
  private offsets: Uint32Array | null = null;

  constructor(
    readonly name: string,
    /** Lower-cased candidates in increasing UTF-16 order. */
    readonly keys: readonly string[],
    /** The form shown for each key, or null when every form is its key. */
    private readonly displays: readonly string[] | null,
    /** Docs holding each candidate (deleted ones included). */
    readonly counts: Uint32Array,
    private readonly postings: Uint8Array,
  ) {}

  get size(): number {
    return this.keys.length;
  }

  /** The form shown to users of candidate `i`. */
  display(i: number): string {
    return this.displays === null ? this.keys[i] : this.displays[i];
  }

  /** First index whose key is >= `s`. */
  lowerBound(s: string, lo = 0, hi = this.keys.length): number {
    const keys = this.keys;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < s) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The `[lo, hi)` range of keys that start with `prefix`. */
  prefixRange(prefix: string, lo = 0, hi = this.keys.length): [number, number] {
    const start = this.lowerBound(prefix, lo, hi);
    // Every key with the prefix sorts below prefix + U+FFFF (keys hold no U+FFFF).
    const end = this.lowerBound(`${prefix}\uffff`, start, hi);
    return [start, end];
  }

  /** Index of `key`, or -1. */
  indexOf(key: string): number {
    const i = this.lowerBound(key);
    return i < this.keys.length && this.keys[i] === key ? i : -1;
  }

  /** The ascending doc ids of candidate `i`. */
  docs(i: number): Uint32Array {
    const offsets = this.offsets ?? this.buildOffsets();
    const r = new ByteReader(this.postings, offsets[i]);
    const out = new Uint32Array(this.counts[i]);
    let doc = -1;
    for (let k = 0; k < out.length; k++) {
      doc += r.readVarint() + 1;
      out[k] = doc;
    }
    return out;
  }

  private buildOffsets(): Uint32Array {
    const offsets = new Uint32Array(this.keys.length);
    const r = new ByteReader(this.postings);
    for (let i = 0; i < offsets.length; i++) {
      offsets[i] = r.pos;
      for (let k = this.counts[i]; k > 0; k--) r.readVarint();
    }
    this.offsets = offsets;
    return offsets;
  }
}

/** The decoded candidates of a segment, by field. */
export type SuggestionFields = ReadonlyMap<string, SuggestionField>;

/** Decodes a whole `.sgt` file (checksum verified first). */
export function decodeSuggestions(bytes: Uint8Array, fileName: string): SuggestionFields {
  const { reader: r, bodyEnd } = openChecked(bytes, fileName, SUGGESTIONS_MAGIC, SUGGESTIONS_VERSION);
  const fields = new Map<string, SuggestionField>();
  const fieldCount = r.readVarint();
  for (let f = 0; f < fieldCount; f++) {
    const name = r.readString();
    const n = r.readVarint();
    const flags = r.readByte();
    const keys = splitBlob(r.readString(), n, fileName, name);
    const displays = (flags & DISPLAY_FLAG) === 0 ? null : splitBlob(r.readString(), n, fileName, name);
    const counts = new Uint32Array(n);
    for (let i = 0; i < n; i++) counts[i] = r.readVarint();
    const length = r.readVarint();
    const postings = r.readBytes(length);
    fields.set(name, new SuggestionField(name, keys, displays, counts, postings));
  }
  if (r.pos !== bodyEnd) throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: ${bodyEnd - r.pos} unread bytes after the last field`, { source: fileName });
  return fields;
}

function splitBlob(blob: string, n: number, fileName: string, field: string): string[] {
  const parts = n === 0 ? [] : blob.split('\n');
  if (parts.length !== n) {
    throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: field ${field} lists ${n} candidates but holds ${parts.length}`, { source: fileName });
  }
  return parts;
}
