/**
 * Reads the term dictionary written by {@link TermDictionaryWriter}: exact lookups and ordered
 * iteration (for merges, prefix and fuzzy expansion).
 */
import { ByteReader } from '../bytes/byte-reader.js';
import { ErrorCode, YarrowError } from '../../errors.js';
import { FOOTER_LENGTH, HEADER_LENGTH, checkFooterMagic, checkHeader, openChecked } from '../file-format.js';
import type { TermInfo } from '../postings/postings-reader.js';
import { TERMS_PER_BLOCK, TERM_DICTIONARY_MAGIC, TERM_DICTIONARY_VERSION } from './term-dictionary-writer.js';

/** A field's block index proper: each block's first term and byte offset. */
interface BlockIndex {
  readonly firstTerms: readonly string[];
  readonly offsets: readonly number[];
}

/**
 * One field's entry in the block index. Opening a dictionary reads each field's name, term count
 * and block count and steps over its blocks without building a string; the blocks' first terms
 * and offsets are decoded on the field's first lookup or iteration (issue 17: most of a search
 * process's open went into decoding every field's index, `_id`'s the largest, which a text query
 * never reads).
 */
class FieldIndex {
  private decoded: BlockIndex | undefined;

  /**
   * @param source the bytes holding the field's block entries, from `start`.
   * @param dataEnd block offsets must lie below it (where the blocks end).
   */
  constructor(
    readonly termCount: number,
    readonly blockCount: number,
    /** Offset of the field's first block (undefined when it has none), read at open. */
    readonly firstOffset: number | undefined,
    private readonly source: Uint8Array,
    private readonly start: number,
    private readonly dataEnd: number,
    private readonly fileName: string,
    decoded?: BlockIndex,
  ) {
    this.decoded = decoded;
  }

  /** The decoded block index; the first call decodes it (and may throw `corrupt_index`). */
  get blocks(): BlockIndex {
    return (this.decoded ??= decodeBlocks(new ByteReader(this.source, this.start), this.blockCount, this.dataEnd, this.fileName));
  }
}

/** A term with its dictionary entry, as yielded by iteration. */
export interface TermEntry extends TermInfo {
  readonly term: string;
}

/** Lookups into one segment's term dictionary. */
export class TermDictionaryReader {
  private constructor(
    private readonly bytes: Uint8Array,
    private readonly fields: ReadonlyMap<string, FieldIndex>,
  ) {}

  /**
   * Opens a `.tdx` file: verifies its checksum (every byte) and reads the block index's outline
   * (field names, term and block counts), throwing `corrupt_index` if that outline runs past the
   * end. A field's block entries (first terms, offsets) are decoded on its first use, so the
   * `corrupt_index` for a bad offset among them comes from that field's first lookup, iteration or
   * {@link visitTermUnits} rather than from here (a file that passed the checksum has none unless
   * its writer was wrong).
   */
  static open(bytes: Uint8Array, fileName: string): TermDictionaryReader {
    const { reader, bodyEnd } = openChecked(bytes, fileName, TERM_DICTIONARY_MAGIC, TERM_DICTIONARY_VERSION);
    const trailer = new ByteReader(bytes, bodyEnd - 8);
    const indexStart = trailer.readFloat64();
    if (!Number.isInteger(indexStart) || indexStart < HEADER_LENGTH || indexStart > bodyEnd - 8) {
      throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: block index offset ${indexStart} is out of range`, { source: fileName });
    }
    reader.pos = indexStart;
    return new TermDictionaryReader(bytes, scanFieldIndexes(reader, indexStart, fileName));
  }

  /**
   * Opens only one field of a `.tdx` file through ranged reads: the header, the trailer, the block
   * index and that field's blocks, never the rest. A writer that only looks ids up keeps a few
   * bytes per id instead of every term of every field. The file's checksum is NOT verified here (it
   * needs every byte); a full {@link TermDictionaryReader.open}, as merges and searchers do, does.
   */
  static async openField(
    read: (offset: number, length: number) => Promise<Uint8Array>,
    size: number,
    fileName: string,
    field: string,
  ): Promise<TermDictionaryReader> {
    if (size < HEADER_LENGTH + 8 + FOOTER_LENGTH) {
      throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: ${size} bytes is too short for a term dictionary`, { source: fileName });
    }
    checkHeader(await read(0, HEADER_LENGTH), fileName, TERM_DICTIONARY_MAGIC, TERM_DICTIONARY_VERSION);
    const tail = await read(size - 8 - FOOTER_LENGTH, 8 + FOOTER_LENGTH);
    checkFooterMagic(tail, fileName);
    const indexStart = new ByteReader(tail).readFloat64();
    const indexEnd = size - 8 - FOOTER_LENGTH;
    if (!Number.isInteger(indexStart) || indexStart < HEADER_LENGTH || indexStart > indexEnd) {
      throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: block index offset ${indexStart} is out of range`, { source: fileName });
    }
    const all = scanFieldIndexes(new ByteReader(await read(indexStart, indexEnd - indexStart)), indexStart, fileName);
    const wanted = all.get(field);
    const fields = new Map<string, FieldIndex>();
    if (wanted?.firstOffset === undefined) return new TermDictionaryReader(new Uint8Array(0), fields);
    // Fields are written one after another: this one ends where the next one (or the index) starts.
    const start = wanted.firstOffset;
    let end = indexStart;
    for (const other of all.values()) {
      const otherStart = other.firstOffset;
      if (otherStart !== undefined && otherStart > start && otherStart < end) end = otherStart;
    }
    const { firstTerms, offsets } = wanted.blocks;
    const rebased = { firstTerms, offsets: offsets.map((o) => o - start) };
    const data = await read(start, end - start);
    fields.set(field, new FieldIndex(wanted.termCount, wanted.blockCount, 0, data, 0, data.length, fileName, rebased));
    return new TermDictionaryReader(data, fields);
  }

  /** Number of distinct terms of a field in this segment. */
  termCount(field: string): number {
    return this.fields.get(field)?.termCount ?? 0;
  }

  /** Looks a term up; undefined when the segment does not have it. */
  lookup(field: string, term: string): TermInfo | undefined {
    const index = this.fields.get(field);
    if (index === undefined) return undefined;
    const { firstTerms: first, offsets } = index.blocks;
    // Last block whose first term is <= term.
    let lo = 0;
    let hi = first.length - 1;
    if (hi < 0 || term < first[0]) return undefined;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (first[mid] <= term) lo = mid;
      else hi = mid - 1;
    }
    const blockTerms = Math.min(TERMS_PER_BLOCK, index.termCount - lo * TERMS_PER_BLOCK);
    const r = new ByteReader(this.bytes, offsets[lo]);
    return SURROGATE.test(term) ? scanBlock(r, blockTerms, term) : findInBlock(r, blockTerms, term);
  }

  /** Iterates a field's terms in order, starting at the first term >= `from` (default: all). */
  *terms(field: string, from = ''): Generator<TermEntry> {
    const index = this.fields.get(field);
    if (index === undefined) return;
    let block = 0;
    if (from !== '') {
      const first = index.blocks.firstTerms;
      let lo = 0;
      let hi = first.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (first[mid] <= from) lo = mid;
        else hi = mid - 1;
      }
      block = lo;
    }
    const r = new ByteReader(this.bytes, index.blocks.offsets[block] ?? 0);
    let remaining = index.termCount - block * TERMS_PER_BLOCK;
    let previous = '';
    let inBlock = 0;
    while (remaining-- > 0) {
      if (inBlock === TERMS_PER_BLOCK) {
        inBlock = 0;
        previous = '';
      }
      const entry = readEntry(r, previous);
      previous = entry.term;
      inBlock++;
      if (entry.term >= from) yield entry;
    }
  }

  /** Number of blocks of a field's terms (see {@link visitTermUnits}). */
  termBlocks(field: string): number {
    return this.fields.get(field)?.blockCount ?? 0;
  }

  /**
   * Calls `visit` with each term of block `block` of a field, in order, as UTF-16 code units in a
   * reused buffer (valid during the call only). Builds no string or object for an ASCII term: the
   * writer hashes every id of a segment this way (`commit/id-filter.ts`), a block at a time.
   */
  visitTermUnits(field: string, block: number, visit: (units: Uint16Array, length: number) => void): void {
    const index = this.fields.get(field);
    if (index === undefined || block < 0 || block >= index.blockCount) return;
    const r = new ByteReader(this.bytes, index.blocks.offsets[block]);
    const bytes = r.bytes;
    const count = Math.min(TERMS_PER_BLOCK, index.termCount - block * TERMS_PER_BLOCK);
    let units = new Uint16Array(256);
    for (let i = 0; i < count; i++) {
      const shared = r.readVarint();
      const length = r.readVarint();
      const start = r.pos;
      if (start + length > bytes.length) r.readBytes(length); // throws corrupt_index
      r.pos = start + length;
      // A UTF-8 suffix has at least as many bytes as UTF-16 units.
      if (units.length < shared + length) {
        const grown = new Uint16Array(2 * (shared + length));
        grown.set(units.subarray(0, shared));
        units = grown;
      }
      let n = shared;
      let ascii = true;
      for (let k = 0; k < length; k++) {
        const c = bytes[start + k];
        if (c >= 0x80) {
          ascii = false;
          break;
        }
        units[n++] = c;
      }
      if (!ascii) {
        const suffix = utf8.decode(bytes.subarray(start, start + length));
        n = shared;
        for (let k = 0; k < suffix.length; k++) units[n++] = suffix.charCodeAt(k);
      }
      skipInfo(r);
      visit(units, n);
    }
  }

  /** Names of the fields that have terms. */
  get fieldNames(): readonly string[] {
    return [...this.fields.keys()];
  }
}

/**
 * Reads the block index's outline: per field its name, term count and block count, stepping over
 * its block entries (each a string and a varint) without decoding them. Throws `corrupt_index` when
 * the outline runs past the end of `reader`.
 *
 * @param dataEnd where the term blocks end (the index's offset in the file): block offsets lie below.
 */
function scanFieldIndexes(reader: ByteReader, dataEnd: number, fileName: string): Map<string, FieldIndex> {
  const fields = new Map<string, FieldIndex>();
  const bytes = reader.bytes;
  const count = reader.readVarint();
  for (let f = 0; f < count; f++) {
    const name = reader.readString();
    const termCount = reader.readVarint();
    const blocks = reader.readVarint();
    const start = reader.pos;
    let firstOffset: number | undefined;
    for (let b = 0; b < blocks; b++) {
      const length = reader.readVarint();
      if (reader.pos + length > bytes.length) reader.readBytes(length); // throws corrupt_index
      reader.pos += length;
      const offset = reader.readVarint();
      if (b === 0) firstOffset = offset;
    }
    fields.set(name, new FieldIndex(termCount, blocks, firstOffset, bytes, start, dataEnd, fileName));
  }
  return fields;
}

/**
 * Decodes one field's block entries from `reader`: each block's first term and byte offset in the
 * file. The offsets must increase and lie between the header and `dataEnd`, else `corrupt_index` (a
 * lookup would otherwise read the header, another block's bytes or the index as terms).
 */
function decodeBlocks(reader: ByteReader, blocks: number, dataEnd: number, fileName: string): BlockIndex {
  const firstTerms: string[] = new Array<string>(blocks);
  const offsets: number[] = new Array<number>(blocks);
  let previous = HEADER_LENGTH - 1;
  for (let b = 0; b < blocks; b++) {
    firstTerms[b] = reader.readString();
    const offset = reader.readVarint();
    if (offset <= previous || offset >= dataEnd) {
      throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: block offset ${offset} is out of order or outside the term blocks (${HEADER_LENGTH}..${dataEnd})`, {
        source: fileName,
      });
    }
    offsets[b] = previous = offset;
  }
  return { firstTerms, offsets };
}

/** The writer never splits a surrogate pair, which makes its shared prefixes shorter than the true ones. */
const SURROGATE = /[\uD800-\uDFFF]/;
const utf8 = new TextDecoder();

/** Scans one block for `term`, decoding every entry: the general case. */
function scanBlock(r: ByteReader, blockTerms: number, term: string): TermEntry | undefined {
  let previous = '';
  for (let i = 0; i < blockTerms; i++) {
    const entry = readEntry(r, previous);
    if (entry.term === term) return entry;
    if (entry.term > term) return undefined;
    previous = entry.term;
  }
  return undefined;
}

/**
 * Scans one block for `term` (which has no surrogate) without building a string or an object per entry: a writer looks up
 * every buffered id in every segment at each refresh, and nearly all of them miss.
 *
 * `matched` is how many leading UTF-16 units the previous entry shares with `term` (that entry
 * sorts before `term`). An entry sharing fewer units with its predecessor than `matched` differs
 * from it first at a unit where it is larger, and the predecessor equals `term` there: it sorts
 * after `term`, so `term` is absent. One sharing more still sorts before `term`: skip it. Only an
 * entry sharing exactly `matched` units needs its suffix compared, unit by unit while it is ASCII.
 */
function findInBlock(r: ByteReader, blockTerms: number, term: string): TermEntry | undefined {
  const bytes = r.bytes;
  let matched = 0;
  for (let i = 0; i < blockTerms; i++) {
    const shared = r.readVarint();
    const length = r.readVarint();
    const start = r.pos;
    r.pos = start + length;
    if (shared < matched) return undefined;
    if (shared === matched) {
      let k = 0;
      let ascii = true;
      let order = 0;
      for (; k < length; k++) {
        const c = bytes[start + k];
        if (c >= 0x80) {
          ascii = false;
          break;
        }
        if (matched + k >= term.length) {
          order = 1;
          break;
        }
        const t = term.charCodeAt(matched + k);
        if (c !== t) {
          order = c < t ? -1 : 1;
          break;
        }
      }
      if (!ascii) {
        // A non-ASCII suffix: decode it and compare as strings (rare: ids and terms are mostly ASCII).
        const suffix = utf8.decode(bytes.subarray(start, start + length));
        const entryTerm = term.slice(0, shared) + suffix;
        if (entryTerm === term) return readInfo(r, term);
        if (entryTerm > term) return undefined;
        matched = sharedPrefixLength(entryTerm, term);
      } else if (order > 0) return undefined;
      else if (order < 0) matched += k;
      else if (matched + length === term.length) return readInfo(r, term);
      else matched += length; // the entry is a proper prefix of `term`
    }
    skipInfo(r);
  }
  return undefined;
}

function sharedPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Skips the figures that follow a term (5 varints and the min-norm byte). */
function skipInfo(r: ByteReader): void {
  const b = r.bytes;
  let p = r.pos;
  for (let n = 0; n < 5; n++) while (b[p++] >= 0x80);
  p++;
  if (p > b.length) r.readBytes(p - r.pos); // throws corrupt_index
  r.pos = p;
}

function readInfo(r: ByteReader, term: string): TermEntry {
  const docFreq = r.readVarint();
  const totalTermFreq = r.readVarint() + docFreq;
  const pointer = r.readVarint();
  const positionsOffset = r.readVarint();
  const maxFreq = r.readVarint();
  const minNorm = r.readByte();
  return {
    term,
    docFreq,
    totalTermFreq,
    postingsOffset: docFreq === 1 ? -1 : pointer,
    singletonDoc: docFreq === 1 ? pointer : -1,
    positionsOffset,
    maxFreq,
    minNorm,
  };
}

function readEntry(r: ByteReader, previous: string): TermEntry {
  const shared = r.readVarint();
  const suffix = r.readString();
  return readInfo(r, shared === 0 ? suffix : previous.slice(0, shared) + suffix);
}
