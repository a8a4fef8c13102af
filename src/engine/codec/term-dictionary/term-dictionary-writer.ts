/**
 * Writes a segment's term dictionary (`.tdx`): every indexed field's terms in sorted order (JS
 * string order), with the figures needed to open and score their postings.
 *
 * Byte layout:
 * ```
 * header
 * per field, blocks of up to 32 terms; each term:
 *   varint  length of the prefix shared with the previous term of the block (in UTF-16 units)
 *   string  the rest of the term (varint byte length + UTF-8)
 *   varint  docFreq
 *   varint  totalTermFreq - docFreq
 *   varint  docFreq == 1 ? the doc id : postings offset in .pst
 *   varint  positions offset in .pos
 *   varint  max frequency
 *   byte    min norm
 * index (kept in memory; each field's blocks decoded on its first use): per field in order:
 *   string  field name, varint term count, varint block count,
 *   per block: string first term, varint byte offset of the block
 * float64 offset of the index
 * footer
 * ```
 * Only the block index lives in memory; a lookup binary-searches it and scans one block, so a
 * searcher opens a segment without decoding every term (Lucene's and tantivy's sparse index).
 */
import { ByteWriter, putStringFrom, putVarint, stringRoom } from '../bytes/byte-writer.js';
import { writeFooter, writeHeader } from '../file-format.js';
import type { TermInfo } from '../postings/postings-reader.js';

export const TERM_DICTIONARY_MAGIC = 'YTDX';
export const TERM_DICTIONARY_VERSION = 1;
/** Terms per block of the term dictionary. */
export const TERMS_PER_BLOCK = 32;

/** Room for a term's entry besides its suffix: the shared prefix, five varints and a byte. */
const ENTRY_ROOM = 6 * 8 + 1;

interface FieldIndex {
  field: string;
  termCount: number;
  firstTerms: string[];
  offsets: number[];
}

/** Accepts terms field by field, each field's terms in increasing order. */
export class TermDictionaryWriter {
  private readonly out = new ByteWriter(1 << 16);
  private readonly fields: FieldIndex[] = [];
  private current: FieldIndex | null = null;
  /**
   * The code units of the previous term of the block (its first {@link previousLength}): a term's
   * shared prefix is then found by reading one string, not two, and its rest is copied from the
   * same reads.
   */
  private previousUnits = new Uint16Array(64);
  private previousLength = 0;
  private inBlock = 0;

  constructor() {
    writeHeader(this.out, TERM_DICTIONARY_MAGIC, TERM_DICTIONARY_VERSION);
  }

  /** Starts a new field; fields must not repeat. */
  startField(field: string): void {
    this.current = { field, termCount: 0, firstTerms: [], offsets: [] };
    this.fields.push(this.current);
    this.inBlock = 0;
    this.previousLength = 0;
  }

  /** Adds the next term of the current field (strictly greater than the previous one). */
  addTerm(term: string, info: TermInfo): void {
    const out = this.out;
    const buf = out.reserve(stringRoom(term.length) + ENTRY_ROOM);
    let p = this.putTerm(buf, out.length, term);
    p = putVarint(buf, p, info.docFreq);
    p = putVarint(buf, p, info.totalTermFreq - info.docFreq);
    p = putVarint(buf, p, info.docFreq === 1 ? info.singletonDoc : info.postingsOffset);
    p = putVarint(buf, p, info.positionsOffset);
    p = putVarint(buf, p, info.maxFreq);
    buf[p++] = info.minNorm;
    out.advance(p);
    this.endTerm();
  }

  /**
   * Adds the next term of the current field found in one doc only: the bytes of {@link addTerm}
   * with docFreq 1, without a term info made per term.
   */
  addSingleDoc(term: string, doc: number, totalTermFreq: number, positionsOffset: number, maxFreq: number, minNorm: number): void {
    const out = this.out;
    const buf = out.reserve(stringRoom(term.length) + ENTRY_ROOM);
    let p = this.putTerm(buf, out.length, term);
    buf[p++] = 1;
    p = putVarint(buf, p, totalTermFreq - 1);
    p = putVarint(buf, p, doc);
    p = putVarint(buf, p, positionsOffset);
    p = putVarint(buf, p, maxFreq);
    buf[p++] = minNorm;
    out.advance(p);
    this.endTerm();
  }

  /**
   * Writes `term` at `buf[p]` (room reserved) as its prefix shared with the previous term of the
   * block and the rest, starting a block if one is due; returns the position after it.
   */
  private putTerm(buf: Uint8Array, p: number, term: string): number {
    if (this.inBlock === 0) {
      const field = this.current!;
      field.firstTerms.push(term);
      field.offsets.push(p);
      this.previousLength = 0;
    }
    const units = this.unitsFor(term.length);
    const shared = sharedPrefix(units, this.previousLength, term);
    this.previousLength = term.length;
    return putRest(buf, putVarint(buf, p, shared), term, shared, units);
  }

  /** {@link previousUnits}, with room for `length` units (the previous term's kept). */
  private unitsFor(length: number): Uint16Array {
    if (length > this.previousUnits.length) {
      const grown = new Uint16Array(Math.max(length, 2 * this.previousUnits.length));
      grown.set(this.previousUnits);
      this.previousUnits = grown;
    }
    return this.previousUnits;
  }

  private endTerm(): void {
    this.current!.termCount++;
    if (++this.inBlock === TERMS_PER_BLOCK) this.inBlock = 0;
  }

  /** Writes the block index and the footer; returns the file. */
  finish(): Uint8Array {
    const out = this.out;
    const indexOffset = out.length;
    out.writeVarint(this.fields.length);
    for (const f of this.fields) {
      out.writeString(f.field);
      out.writeVarint(f.termCount);
      out.writeVarint(f.firstTerms.length);
      for (let i = 0; i < f.firstTerms.length; i++) {
        // Through the same function as the terms' entries, compiled by now (writeString may not be).
        const term = f.firstTerms[i];
        const buf = out.reserve(stringRoom(term.length) + 8);
        out.advance(putVarint(buf, putRest(buf, out.length, term, 0, this.unitsFor(term.length)), f.offsets[i]));
      }
    }
    out.writeFloat64(indexOffset);
    writeFooter(out);
    return out.toBytes();
  }
}

/**
 * Writes `term.slice(from)` at `buf[p]` as a string (varint UTF-8 length, then the bytes; room
 * reserved) and its code units into `units[from..]`; returns the position after it. ASCII and
 * shorter than 128 units (most terms' rest) is copied here, its length its one-byte prefix; the
 * rest is encoded by putStringFrom.
 */
function putRest(buf: Uint8Array, p: number, term: string, from: number, units: Uint16Array): number {
  const length = term.length;
  let i = from;
  if (length - from < 0x80) {
    let q = p + 1;
    for (; i < length; i++) {
      const c = term.charCodeAt(i);
      if (c >= 0x80) break;
      units[i] = c;
      buf[q++] = c;
    }
    if (i === length) {
      buf[p] = length - from;
      return q;
    }
  }
  for (; i < length; i++) units[i] = term.charCodeAt(i);
  return putStringFrom(buf, p, term, from);
}

/** Length of the prefix `term` shares with the `length` code units `units` (never half a surrogate pair). */
function sharedPrefix(units: Uint16Array, length: number, term: string): number {
  const n = Math.min(length, term.length);
  let i = 0;
  while (i < n && units[i] === term.charCodeAt(i)) i++;
  // Never split a surrogate pair: the suffix is written as UTF-8.
  if (i > 0 && i < term.length) {
    const c = term.charCodeAt(i - 1);
    if (c >= 0xd800 && c <= 0xdbff) i--;
  }
  return i;
}
