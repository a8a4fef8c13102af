/**
 * A segment's postings (`.pst`) and positions (`.pos`) read by position instead of held whole: a
 * term's bytes are read with one positional read of their range when the term is looked up, and
 * kept in a least-recently-used pool bounded by bytes, shared by every open postings file of the
 * thread, so frequent terms stay in memory and a server's memory does not grow with its index
 * (issue 17). Positions are read only when an iterator first reads one (phrases).
 *
 * The decoders are unchanged: they work on a Uint8Array and offsets, so a term's bytes are read
 * into a buffer that starts with a copy of the file's header (the decoders read the format version
 * there) and the term's TermInfo is rebased to offsets in that buffer. Nothing in the term
 * dictionary records where a term's postings end, so its extent is read from the postings
 * themselves: a one-block term's from the block's bit widths, a longer term's from its skip table
 * (the blocks' byte lengths), its positions' from its total term frequency (one varint each).
 */
import { packedBytes } from '../bitpacking/bitpacking.js';
import type { RandomAccessFile } from '../../directory.js';
import { ErrorCode, YarrowError } from '../../errors.js';
import { FOOTER_LENGTH, HEADER_LENGTH } from '../file-format.js';
import { IndexOptions, POSTINGS_BLOCK, postingsVersion } from './postings-format.js';
import type { TermInfo } from './postings-format.js';
import { PostingsIterator, SkipData } from './postings-reader.js';
import type { PositionsSource, SkipSource } from './postings-reader.js';

/** Default budget of a thread's pool of terms' postings (and their positions and skip data). */
export const DEFAULT_TERM_POSTINGS_BYTES = 8 * 1024 * 1024;

/** Where a rebased term's postings start in its buffer: right after the copied header. */
const TERM_START = HEADER_LENGTH;

/** Bytes of skip data a multi-block term's table is first guessed to take, per block. */
const SKIP_GUESS_PER_BLOCK = 24;

/**
 * One term's postings read from storage: its bytes, its TermInfo rebased to them, its skip data
 * (decoded once, for every query on the term while it is kept) and its positions once read.
 */
export class TermPostings implements SkipSource, PositionsSource {
  private skip: SkipData | null = null;
  private positions: Uint8Array | null = null;
  /** Looked up since the pool last passed it (see {@link TermPostingsPool}). */
  recent = false;
  /** Its cost when the pool last weighed it (what the pool counts for it). */
  pooledCost = 0;

  constructor(
    private readonly file: PostingsFile,
    /** The term's postings (after a copy of the file header), empty past the header for a singleton. */
    readonly bytes: Uint8Array,
    /** The term's entry with its offsets rebased: postings at {@link TERM_START}, positions at 0. */
    readonly info: TermInfo,
    /** Where the term's positions start in `.pos`. */
    private readonly positionsStart: number,
    /** The term's total term frequency: how many position varints it has. */
    private readonly positionCount: number,
  ) {}

  get(bytes: Uint8Array, info: TermInfo, hasFreqs: boolean, hasPositions: boolean): SkipData {
    return (this.skip ??= new SkipData(bytes, info, hasFreqs, hasPositions));
  }

  positionsBytes(): Uint8Array {
    if (this.positions === null) {
      this.positions = this.file.readPositions(this.positionsStart, this.positionCount);
      this.file.recost(this);
    }
    return this.positions;
  }

  /** Bytes this entry holds (its pool's cost). */
  get cost(): number {
    const skip = this.skip;
    const skipBytes = skip === null ? 0 : skip.numBlocks * 24 + (skip.impactFreqs?.length ?? 0) * 5;
    return 96 + this.bytes.length + (this.positions?.length ?? 0) + skipBytes;
  }
}

/**
 * The pool of terms' postings of a thread, keyed by file key + postings offset, bounded by bytes.
 * A hit only marks its entry: a search looks every query term up in every segment, and moving the
 * entry to the young end of an LRU (a delete and a set on the map) on each hit was most of what a
 * pooled term cost a query. Eviction gives marked entries a second chance (CLOCK): the oldest
 * entry goes unless it was looked up since the pool last passed it, in which case it is moved to
 * the young end unmarked.
 */
export class TermPostingsPool {
  private readonly entries = new Map<number, TermPostings>();
  private used = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.used;
  }

  /** Whether an entry is pooled under `key` (without marking it). */
  has(key: number): boolean {
    return this.entries.has(key);
  }

  /** The entry under `key`, marked as looked up; undefined when absent. */
  get(key: number): TermPostings | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined) entry.recent = true;
    return entry;
  }

  /** Pools `entry` under `key` (again, when its cost grew), evicting past the budget. */
  set(key: number, entry: TermPostings): void {
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.used -= old.pooledCost;
    }
    const cost = entry.cost;
    if (cost > this.maxBytes) return;
    entry.pooledCost = cost;
    this.entries.set(key, entry);
    this.used += cost;
    // A moved entry comes round again unmarked, so this ends within two passes over the entries;
    // the entry just pooled is never the one dropped (it fits alone).
    for (const [k, e] of this.entries) {
      if (this.used <= this.maxBytes) break;
      if (e === entry) continue;
      this.entries.delete(k);
      if (e.recent) {
        e.recent = false;
        this.entries.set(k, e);
      } else {
        this.used -= e.pooledCost;
      }
    }
  }
}

let sharedPool: TermPostingsPool | null = null;
let nextKey = 0;

/** The thread's pool of terms' postings (made on first use, `maxBytes` then). */
function pool(maxBytes = DEFAULT_TERM_POSTINGS_BYTES): TermPostingsPool {
  return (sharedPool ??= new TermPostingsPool(maxBytes));
}

/** A segment's `.pst` and `.pos` files open for positional reads. */
export class PostingsFile {
  /** The file's first pool key: a term's key is this plus its postings offset. */
  private readonly key: number;
  private readonly header: Uint8Array;
  private readonly version: number;
  /** Singletons have no `.pst` bytes: their entries are kept as long as their (cached) TermInfo. */
  private readonly singletons = new WeakMap<TermInfo, TermPostings>();

  /**
   * @param postings `.pst`, verified by the caller (its checksum streamed at open)
   * @param positions `.pos`, verified likewise
   */
  constructor(
    readonly postings: RandomAccessFile,
    readonly positions: RandomAccessFile,
  ) {
    this.key = nextKey;
    nextKey += postings.size + 1;
    this.header = new Uint8Array(HEADER_LENGTH);
    if (postings.read(this.header, 0) !== HEADER_LENGTH) throw shortRead(postings.name, 0);
    this.version = postingsVersion(this.header);
  }

  /**
   * A term's postings with full-text options (docs, freqs and positions): from the pool, or read
   * (one or two positional reads) and pooled.
   */
  term(info: TermInfo, hasFreqs = true): TermPostings {
    if (info.singletonDoc >= 0) {
      let entry = this.singletons.get(info);
      if (entry === undefined) {
        entry = new TermPostings(this, this.header, { ...info, positionsOffset: 0 }, info.positionsOffset, info.totalTermFreq);
        this.singletons.set(info, entry);
      }
      return entry;
    }
    const cache = pool();
    const key = this.key + info.postingsOffset;
    let entry = cache.get(key);
    if (entry === undefined) {
      const bytes = this.readPostings(info, hasFreqs);
      entry = new TermPostings(this, bytes, { ...info, postingsOffset: TERM_START, positionsOffset: 0 }, info.positionsOffset, info.totalTermFreq);
      cache.set(key, entry);
    }
    return entry;
  }

  /** Re-weighs an entry whose cost grew (its positions were read). */
  recost(entry: TermPostings): void {
    const cache = pool();
    // Only a pooled entry is re-set (a singleton's lives in its WeakMap).
    if (entry.info.singletonDoc < 0) {
      const key = this.key + entry.info.postingsOffset;
      if (cache.get(key) === entry) cache.set(key, entry);
    }
  }

  /**
   * The files as a merge reads them: a window at a time, not through the pool (a merge reads every
   * term once, which would only evict the terms searches keep coming back to).
   */
  stream(): PostingsStream {
    const reader = (file: RandomAccessFile): RangeReader => (offset, length) => {
      try {
        return Promise.resolve(this.readFrom(file, offset, length));
      } catch (e) {
        return Promise.reject(e instanceof Error ? e : new Error(String(e)));
      }
    };
    return PostingsStream.withHeader(reader(this.postings), this.postings.size, reader(this.positions), this.positions.size, this.header);
  }

  /** Closes both files; the pool's entries of this file age out. */
  close(): void {
    this.postings.close();
    this.positions.close();
  }

  /** Reads a term's `.pst` bytes into a buffer behind a copy of the header. */
  private readPostings(info: TermInfo, hasFreqs: boolean): Uint8Array {
    const start = info.postingsOffset;
    const dataEnd = this.postings.size - FOOTER_LENGTH;
    const available = dataEnd - start;
    if (start < HEADER_LENGTH || available <= 0) throw corrupt(this.postings.name, `postings offset ${start} is outside the data`);
    const numBlocks = Math.ceil(info.docFreq / POSTINGS_BLOCK);
    let length: number;
    if (numBlocks === 1) {
      // At most the two bit widths and 32 bits per doc and freq: read that, keep what the block takes.
      const window = this.read(start, Math.min(available, 2 + 8 * info.docFreq));
      length = oneBlockLength(window, info.docFreq, hasFreqs);
    } else {
      let guess = Math.min(available, numBlocks * SKIP_GUESS_PER_BLOCK + 64);
      for (;;) {
        const window = this.read(start, guess);
        const impacts = hasFreqs && this.version !== 1;
        length = multiBlockLength(window, numBlocks, hasFreqs, impacts);
        if (length >= 0 || guess === available) break;
        guess = Math.min(available, guess * 4);
      }
    }
    if (length < 0 || length > available) throw corrupt(this.postings.name, `the postings at ${start} run past the data`);
    const bytes = new Uint8Array(TERM_START + length);
    bytes.set(this.header);
    if (this.postings.read(bytes.subarray(TERM_START), start) !== length) throw shortRead(this.postings.name, start);
    return bytes;
  }

  /** Reads `count` position varints from `start` of `.pos`: the first read guesses two bytes each. */
  readPositions(start: number, count: number): Uint8Array {
    const dataEnd = this.positions.size - FOOTER_LENGTH;
    const available = dataEnd - start;
    if (start < HEADER_LENGTH || available < count) throw corrupt(this.positions.name, `positions offset ${start} is outside the data`);
    let window = this.readFrom(this.positions, start, Math.min(available, 2 * count + 8));
    let end = varintsEnd(window, count);
    if (end < 0 && window.length < available) {
      window = this.readFrom(this.positions, start, Math.min(available, 5 * count));
      end = varintsEnd(window, count);
    }
    if (end < 0) throw corrupt(this.positions.name, `the positions at ${start} run past the data`);
    // A first guess far too long is not kept whole.
    return end * 2 < window.length ? window.slice(0, end) : window.subarray(0, end);
  }

  private read(position: number, length: number): Uint8Array {
    return this.readFrom(this.postings, position, length);
  }

  private readFrom(file: RandomAccessFile, position: number, length: number): Uint8Array {
    const out = new Uint8Array(length);
    if (file.read(out, position) !== length) throw shortRead(file.name, position);
    return out;
  }
}

/** The byte length of a one-block term's block in `window` (read from its start), or -1. */
function oneBlockLength(window: Uint8Array, docs: number, hasFreqs: boolean): number {
  if (window.length < 1) return -1;
  let length = 1 + packedBytes(docs, window[0]);
  if (hasFreqs) {
    if (window.length <= length) return -1;
    length += 1 + packedBytes(docs, window[length]);
  }
  return length;
}

/**
 * The byte length of a multi-block term's postings (skip table and blocks) from its start in
 * `window`, or -1 when the skip table runs past the window. Reads the table as SkipData does.
 */
function multiBlockLength(window: Uint8Array, numBlocks: number, hasFreqs: boolean, impacts: boolean): number {
  const cursor = { pos: 0 };
  let blocks = 0;
  for (let b = 0; b < numBlocks; b++) {
    if (varint(window, cursor) < 0) return -1; // last doc delta
    const length = varint(window, cursor);
    if (length < 0) return -1;
    blocks += length;
    // A full-text field's postings always have positions with freqs (segment-reader.ts).
    if (hasFreqs && varint(window, cursor) < 0) return -1;
    if (impacts) {
      const count = varint(window, cursor);
      if (count < 0) return -1;
      for (let i = 0; i < 2 * count; i++) if (varint(window, cursor) < 0) return -1;
    } else if (hasFreqs) {
      if (varint(window, cursor) < 0) return -1;
      if (cursor.pos >= window.length) return -1;
      cursor.pos++;
    }
  }
  return cursor.pos + blocks;
}

/** Reads a varint at `cursor.pos` and moves past it; -1 (the cursor left anywhere) when it runs past `bytes`. */
function varint(bytes: Uint8Array, cursor: { pos: number }): number {
  let p = cursor.pos;
  let value = 0;
  let scale = 1;
  while (p < bytes.length) {
    const b = bytes[p++];
    value += (b & 0x7f) * scale;
    if (b < 0x80) {
      cursor.pos = p;
      return value;
    }
    scale *= 128;
  }
  return -1;
}

/** The offset past `count` varints from the start of `bytes`, or -1 when they run past it. */
function varintsEnd(bytes: Uint8Array, count: number): number {
  let p = 0;
  for (let i = 0; i < count; i++) {
    while (p < bytes.length && bytes[p] >= 0x80) p++;
    if (p >= bytes.length) return -1;
    p++;
  }
  return p;
}

function corrupt(name: string, what: string): YarrowError {
  return new YarrowError(ErrorCode.corruptIndex, `${name}: ${what}`, { source: name });
}

function shortRead(name: string, position: number): YarrowError {
  return new YarrowError(ErrorCode.corruptIndex, `${name}: the file ended early at ${position} (truncated while open?)`, { source: name });
}

/** Bytes a merge reads of `.pst` or `.pos` at a time (more for a term that does not fit). */
export const STREAM_CHUNK_BYTES = 1 << 20;

/** Reads `length` bytes of a file from `offset` (Directory.readRange of one file). */
export type RangeReader = (offset: number, length: number) => Promise<Uint8Array>;

/**
 * How a merge reads one source's postings, its terms asked in order: {@link MergePostings.iterator}
 * gives a term's iterator when the term's bytes are at hand, null when they are to be read first
 * by {@link MergePostings.load}.
 */
export interface MergePostings {
  iterator(info: TermInfo, options: IndexOptions): PostingsIterator | null;
  load(info: TermInfo, options: IndexOptions): Promise<void>;
}

/** A source whose `.pst` and `.pos` are in memory. */
export class InMemoryPostings implements MergePostings {
  constructor(
    private readonly postings: Uint8Array,
    private readonly positions: Uint8Array,
  ) {}

  iterator(info: TermInfo, options: IndexOptions): PostingsIterator {
    return new PostingsIterator(this.postings, options === IndexOptions.docs ? null : this.positions, info, options);
  }

  load(): Promise<void> {
    return Promise.resolve();
  }
}

/** A window of a file: `bytes` hold the file's bytes from `start` (postings: after a copy of the header). */
interface Window {
  start: number;
  bytes: Uint8Array;
}

/**
 * A segment's `.pst` and `.pos` as a merge reads them: in term order, through one window of each
 * file ({@link STREAM_CHUNK_BYTES} or a term's extent, whichever is larger) read by range, so a
 * merge holds a few megabytes of its inputs' postings rather than the whole files. A term's
 * iterator is built synchronously when the windows hold it ({@link PostingsStream.iterator}), after
 * {@link PostingsStream.load} otherwise. The caller verifies both files before (their checksums
 * streamed by range).
 */
export class PostingsStream implements MergePostings {
  private postings: Window;
  private positions: Window;

  private constructor(
    private readonly readPostingsRange: RangeReader,
    private readonly readPositionsRange: RangeReader,
    /** Where each file's data ends (its footer starts). */
    private readonly postingsEnd: number,
    private readonly positionsEnd: number,
    private readonly header: Uint8Array,
    private readonly version: number,
    /** Bytes read at a time (at least). */
    private readonly chunkBytes: number,
  ) {
    this.postings = { start: HEADER_LENGTH, bytes: header };
    this.positions = { start: HEADER_LENGTH, bytes: new Uint8Array(0) };
  }

  /** Opens the two files (of `postingsSize` and `positionsSize` bytes) for a merge's reads. */
  static async open(postings: RangeReader, postingsSize: number, positions: RangeReader, positionsSize: number, chunkBytes = STREAM_CHUNK_BYTES): Promise<PostingsStream> {
    return PostingsStream.withHeader(postings, postingsSize, positions, positionsSize, await postings(0, HEADER_LENGTH), chunkBytes);
  }

  /** {@link PostingsStream.open} with the postings file's header already read. */
  static withHeader(postings: RangeReader, postingsSize: number, positions: RangeReader, positionsSize: number, header: Uint8Array, chunkBytes = STREAM_CHUNK_BYTES): PostingsStream {
    return new PostingsStream(postings, positions, postingsSize - FOOTER_LENGTH, positionsSize - FOOTER_LENGTH, header, postingsVersion(header), chunkBytes);
  }

  /**
   * An iterator over a term whose bytes the windows hold (positions read when `positions`), or
   * null: then {@link PostingsStream.load} the term and ask again.
   */
  iterator(info: TermInfo, options: IndexOptions): PostingsIterator | null {
    const hasFreqs = options === IndexOptions.docsFreqsPositions;
    const postingsAt = info.singletonDoc >= 0 ? -1 : this.postingsAt(info, hasFreqs);
    if (postingsAt === null) return null;
    const positionsAt = hasFreqs ? this.positionsAt(info) : 0;
    if (positionsAt === null) return null;
    const rebased = { ...info, postingsOffset: postingsAt, positionsOffset: positionsAt };
    return new PostingsIterator(this.postings.bytes, hasFreqs ? this.positions.bytes : null, rebased, options);
  }

  /** Reads the windows that hold a term (from the term's start on). */
  async load(info: TermInfo, options: IndexOptions): Promise<void> {
    const hasFreqs = options === IndexOptions.docsFreqsPositions;
    if (info.singletonDoc < 0) {
      for (let size = this.chunkBytes; this.postingsAt(info, hasFreqs) === null; size *= 4) {
        const start = info.postingsOffset;
        const length = Math.min(size, this.postingsEnd - start);
        if (start < HEADER_LENGTH || length <= 0) throw corrupt('postings', `offset ${start} is outside the data`);
        const data = await this.readPostingsRange(start, length);
        const bytes = new Uint8Array(HEADER_LENGTH + data.length);
        bytes.set(this.header);
        bytes.set(data, HEADER_LENGTH);
        this.postings = { start, bytes };
        if (this.postingsAt(info, hasFreqs) === null && start + length >= this.postingsEnd) throw corrupt('postings', `the postings at ${start} run past the data`);
      }
    }
    if (!hasFreqs) return;
    for (let size = this.chunkBytes; this.positionsAt(info) === null; size *= 4) {
      const start = info.positionsOffset;
      const length = Math.min(size, this.positionsEnd - start);
      if (start < HEADER_LENGTH || length <= 0) throw corrupt('positions', `offset ${start} is outside the data`);
      this.positions = { start, bytes: await this.readPositionsRange(start, length) };
      if (this.positionsAt(info) === null && start + length >= this.positionsEnd) throw corrupt('positions', `the positions at ${start} run past the data`);
    }
  }

  /** Where a term's postings start in the postings window, or null when it does not hold them all. */
  private postingsAt(info: TermInfo, hasFreqs: boolean): number | null {
    const { start, bytes } = this.postings;
    const at = HEADER_LENGTH + info.postingsOffset - start;
    if (info.postingsOffset < start || at >= bytes.length) return null;
    const view = bytes.subarray(at);
    const numBlocks = Math.ceil(info.docFreq / POSTINGS_BLOCK);
    const length = numBlocks === 1 ? oneBlockLength(view, info.docFreq, hasFreqs) : multiBlockLength(view, numBlocks, hasFreqs, hasFreqs && this.version !== 1);
    return length >= 0 && length <= view.length ? at : null;
  }

  /** Where a term's positions start in the positions window, or null when it does not hold them all. */
  private positionsAt(info: TermInfo): number | null {
    const { start, bytes } = this.positions;
    const at = info.positionsOffset - start;
    if (at < 0 || at >= bytes.length) return null;
    const count = info.totalTermFreq;
    // Each position takes 1 to 5 bytes: only a term near the window's end needs its varints counted.
    if (at + 5 * count <= bytes.length || start + bytes.length >= this.positionsEnd) return at;
    return varintsEnd(bytes.subarray(at), count) >= 0 ? at : null;
  }
}
