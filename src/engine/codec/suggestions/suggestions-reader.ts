/**
 * Reads a `.sgt` file (layout in suggestions-writer.ts): per field, the sorted candidate keys,
 * their display forms and doc counts, with each candidate's docs decoded on demand.
 */
import { ByteReader } from '../bytes/byte-reader.js';
import { openChecked } from '../file-format.js';
import { ErrorCode, YarrowError } from '../../errors.js';
import { DISPLAY_FLAG, SUGGESTIONS_MAGIC, SUGGESTIONS_VERSION } from './suggestions-writer.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const NEWLINE = 0x0a;

/**
 * The candidates of one field of one segment, sorted by key. Keys stay UTF-8 bytes in the file's
 * blob and are compared as bytes (UTF-8 byte order is code point order, the order the writer
 * sorts by), so opening a field with a million candidates makes no strings: only the candidates a
 * query returns are decoded.
 */
export class SuggestionField {
  /** Offset of each candidate's postings (built on the first {@link SuggestionField.docs} call). */
  private offsets: Uint32Array | null = null;
  private displayStarts: Uint32Array | null = null;

  constructor(
    readonly name: string,
    /** Keys (lower-cased, UTF-8) joined by "\n", in code point order. */
    private readonly keyBlob: Uint8Array,
    /** Start of each key in the blob, and one past the blob's end (`starts[size]`). */
    private readonly starts: Uint32Array,
    /** Display forms joined by "\n" in key order, or null when every form is its key. */
    private readonly displayBlob: Uint8Array | null,
    /** Docs holding each candidate (deleted ones included). */
    readonly counts: Uint32Array,
    private readonly postings: Uint8Array,
  ) {}

  get size(): number {
    return this.counts.length;
  }

  /** Key `i` as a string. */
  key(i: number): string {
    return utf8(this.keyBlob, this.starts[i], this.starts[i + 1] - 1);
  }

  /** The form shown to users of candidate `i`. */
  display(i: number): string {
    if (this.displayBlob === null) return this.key(i);
    // The blob's line count was checked at decode time.
    const starts = (this.displayStarts ??= lineStarts(this.displayBlob, this.size) as Uint32Array);
    return utf8(this.displayBlob, starts[i], starts[i + 1] - 1);
  }

  /** The `[lo, hi)` range of keys that start with `prefix` (within `[lo, hi)` when given). */
  prefixRange(prefix: string, lo = 0, hi = this.size): [number, number] {
    const bytes = encoder.encode(prefix);
    const start = this.search(bytes, lo, hi, false);
    return [start, this.search(bytes, start, hi, true)];
  }

  /** Index of `key`, or -1. */
  indexOf(key: string): number {
    const bytes = encoder.encode(key);
    const i = this.search(bytes, 0, this.size, false);
    return i < this.size && this.compare(i, bytes, false) === 0 ? i : -1;
  }

  /**
   * The next letter of every distinct continuation of `prefix` among the keys (keys equal to the
   * prefix have none), at most `max` of them, skipping from one letter's range to the next.
   */
  nextLetters(prefix: string, max: number): string[] {
    const bytes = encoder.encode(prefix);
    const lo = this.search(bytes, 0, this.size, false);
    const hi = this.search(bytes, lo, this.size, true);
    const letters: string[] = [];
    const at = bytes.length;
    let j = lo;
    while (j < hi && letters.length < max) {
      const from = this.starts[j] + at;
      if (from >= this.starts[j + 1] - 1) {
        j++;
        continue;
      }
      const lead = this.keyBlob[from];
      const width = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
      const letter = utf8(this.keyBlob, from, from + width);
      letters.push(letter);
      const next = new Uint8Array(at + width);
      next.set(bytes);
      next.set(this.keyBlob.subarray(from, from + width), at);
      j = this.search(next, j, hi, true);
    }
    return letters;
  }

  /**
   * First index in `[lo, hi)` whose key is >= `bytes` (`past` false), or whose key is greater and
   * does not start with `bytes` (`past` true: the end of the prefix's range).
   */
  private search(bytes: Uint8Array, lo: number, hi: number, past: boolean): number {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.compare(mid, bytes, past);
      if (c < 0 || (past && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Key `i` against `bytes`: its sign; with `asPrefix`, a key that starts with `bytes` is 0. */
  private compare(i: number, bytes: Uint8Array, asPrefix: boolean): number {
    const blob = this.keyBlob;
    const start = this.starts[i];
    const length = this.starts[i + 1] - 1 - start;
    const n = Math.min(length, bytes.length);
    for (let k = 0; k < n; k++) {
      const d = blob[start + k] - bytes[k];
      if (d !== 0) return d;
    }
    if (asPrefix && length >= bytes.length) return 0;
    return length - bytes.length;
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
    const offsets = new Uint32Array(this.size);
    const r = new ByteReader(this.postings);
    for (let i = 0; i < offsets.length; i++) {
      offsets[i] = r.pos;
      for (let k = this.counts[i]; k > 0; k--) r.readVarint();
    }
    this.offsets = offsets;
    return offsets;
  }
}

/** UTF-8 bytes `[start, end)` of `blob` as a string (ASCII by hand: most keys are). */
function utf8(blob: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let k = start; k < end; k++) {
    const c = blob[k];
    if (c >= 0x80) return decoder.decode(blob.subarray(start, end));
    s += String.fromCharCode(c);
  }
  return s;
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
    const keys = blobOf(r, n, fileName, name);
    const displays = (flags & DISPLAY_FLAG) === 0 ? null : blobOf(r, n, fileName, name).blob;
    const counts = new Uint32Array(n);
    for (let i = 0; i < n; i++) counts[i] = r.readVarint();
    const length = r.readVarint();
    const postings = r.readBytes(length);
    fields.set(name, new SuggestionField(name, keys.blob, keys.starts, displays, counts, postings));
  }
  if (r.pos !== bodyEnd) throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: ${bodyEnd - r.pos} unread bytes after the last field`, { source: fileName });
  return fields;
}

/**
 * Start offsets of the `n` "\\n"-separated lines of `blob`, plus one past its end
 * (`blob.length + 1`); -1 instead when the blob holds another number of lines.
 */
function lineStarts(blob: Uint8Array, n: number): Uint32Array | -1 {
  const starts = new Uint32Array(n + 1);
  let line = 1;
  for (let k = blob.indexOf(NEWLINE); k >= 0; k = blob.indexOf(NEWLINE, k + 1)) {
    if (line >= n) return -1;
    starts[line++] = k + 1;
  }
  if (n === 0 ? blob.length !== 0 : line !== n) return -1;
  starts[n] = blob.length + 1;
  return starts;
}

/** A "\n"-joined blob of `n` lines (its varint length first) and its line starts. */
function blobOf(r: ByteReader, n: number, fileName: string, field: string): { blob: Uint8Array; starts: Uint32Array } {
  const blob = r.readBytes(r.readVarint());
  const starts = lineStarts(blob, n);
  if (starts === -1) throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: field ${field} does not hold the ${n} candidates it lists`, { source: fileName });
  return { blob, starts };
}
