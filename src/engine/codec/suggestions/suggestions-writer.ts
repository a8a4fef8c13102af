/**
 * Writes a segment's completion candidates (`seg-<id>.sgt`): per suggest field, the candidates in
 * sorted order with the docs that hold each one. The docs are what let a merge keep live docs only
 * and a query count only live docs of a segment with deletions.
 *
 * Byte layout (after the header `Ysgt`, version 1; footer from file-format.ts):
 *   varint  field count
 *   per field, in the order written:
 *     string  field name
 *     varint  candidate count n
 *     byte    flags: 1 = display forms follow (some candidate is shown with capitals)
 *     string  keys: the n lower-cased candidates joined by "\n", in increasing code point order
 *             (UTF-8 byte order, so a reader compares keys without decoding them)
 *     string  (flag 1 only) display forms, n of them joined by "\n", in the keys' order
 *     varint  x n  doc count of each candidate
 *     varint  postings length in bytes, then the postings: per candidate, its doc count of
 *             ascending doc ids as varint gaps (the first gap from -1)
 *
 * Keys and display forms are joined into one blob each so that a reader finds candidates by
 * binary search over the bytes and decodes only the ones it returns. A candidate never holds
 * "\n": it is words joined by single spaces.
 */
import { ByteWriter } from '../bytes/byte-writer.js';
import { writeFooter, writeHeader } from '../file-format.js';

export const SUGGESTIONS_MAGIC = 'Ysgt';
export const SUGGESTIONS_VERSION = 1;

/** Flag bit of a field whose display forms differ from its keys. */
export const DISPLAY_FLAG = 1;

interface FieldBuffer {
  readonly name: string;
  readonly keys: string[];
  readonly displays: string[];
  hasDisplays: boolean;
  readonly counts: number[];
  readonly postings: ByteWriter;
}

/**
 * Compares strings by code point (UTF-8 byte order), the order of keys in the file. It differs
 * from `<` (UTF-16 code units) only where a character above U+FFFF meets one in U+E000..U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca !== cb) return codePointRank(ca) - codePointRank(cb);
  }
  return a.length - b.length;
}

/** Moves surrogates (the halves of characters above U+FFFF) above U+E000..U+FFFF. */
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

/** Sorts keys in code point order: the default (UTF-16) sort, redone only when a key has a surrogate. */
export function sortKeys(keys: string[]): string[] {
  keys.sort();
  if (keys.some((k) => /[\ud800-\udfff]/.test(k))) keys.sort(compareCodePoints);
  return keys;
}

/** Collects candidates field by field (keys in increasing order) and encodes the file. */
export class SuggestionsWriter {
  private readonly fields: FieldBuffer[] = [];
  private current: FieldBuffer | null = null;

  /** Starts a field; its candidates follow with {@link SuggestionsWriter.add}. */
  startField(name: string): void {
    this.current = { name, keys: [], displays: [], hasDisplays: false, counts: [], postings: new ByteWriter(1024) };
    this.fields.push(this.current);
  }

  /**
   * Adds the next candidate of the current field: its key (lower-cased, greater than the previous
   * key), the form shown to users, and its ascending doc ids (at least one).
   */
  add(key: string, display: string, docs: ArrayLike<number>): void {
    const f = this.current;
    if (f === null) throw new Error('SuggestionsWriter.add before startField');
    const last = f.keys.length === 0 ? null : f.keys[f.keys.length - 1];
    if (last !== null && compareCodePoints(last, key) >= 0) throw new Error(`suggest candidates out of order: ${JSON.stringify(key)} after ${JSON.stringify(last)}`);
    if (docs.length === 0) throw new Error(`suggest candidate ${JSON.stringify(key)} has no docs`);
    f.keys.push(key);
    f.displays.push(display);
    if (display !== key) f.hasDisplays = true;
    f.counts.push(docs.length);
    let prev = -1;
    for (let i = 0; i < docs.length; i++) {
      f.postings.writeVarint(docs[i] - prev - 1);
      prev = docs[i];
    }
  }

  /** Candidates added so far, over every field. */
  get size(): number {
    let n = 0;
    for (const f of this.fields) n += f.keys.length;
    return n;
  }

  /** Encodes every field that has candidates. */
  finish(): Uint8Array {
    const fields = this.fields.filter((f) => f.keys.length > 0);
    const w = new ByteWriter(4096);
    writeHeader(w, SUGGESTIONS_MAGIC, SUGGESTIONS_VERSION);
    w.writeVarint(fields.length);
    for (const f of fields) {
      w.writeString(f.name);
      w.writeVarint(f.keys.length);
      w.writeByte(f.hasDisplays ? DISPLAY_FLAG : 0);
      w.writeString(f.keys.join('\n'));
      if (f.hasDisplays) w.writeString(f.displays.join('\n'));
      for (const c of f.counts) w.writeVarint(c);
      const postings = f.postings.view();
      w.writeVarint(postings.length);
      w.writeBytes(postings);
    }
    writeFooter(w);
    return w.toBytes();
  }
}
