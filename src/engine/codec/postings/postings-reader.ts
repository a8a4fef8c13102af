/**
 * Reads the postings written by {@link PostingsWriter}: a forward-only iterator per term with
 * skipping (`advance`), and shallow skipping (`advanceShallow`) that exposes per-block maxima for
 * block-max pruning without decoding the block.
 */
import { ByteReader } from '../bytes/byte-reader.js';
import { ErrorCode, YarrowError } from '../../errors.js';
import { IndexOptions, NO_MORE_DOCS, POSTINGS_BLOCK, POSTINGS_VERSION, postingsVersion } from './postings-format.js';
import type { TermInfo } from './postings-format.js';

export type { TermInfo } from './postings-format.js';

/**
 * A term's skip data: per block its last doc, byte offset, positions offset and score bounds. It is
 * immutable (but for {@link SkipData.blockBounds}' memo of what follows from it), so a
 * {@link SkipDataCache} shares it between the iterators of every query on the term.
 */
export class SkipData {
  readonly numBlocks: number;
  readonly blockLast: Int32Array;
  readonly blockOffset: Float64Array;
  readonly blockPositions: Uint32Array | null;
  readonly blockMaxFreqs: Uint32Array;
  readonly blockMinNorms: Uint8Array;
  /**
   * Block b's impacts (impacts.ts) are entries impactStarts[b] to impactStarts[b + 1] of
   * impactFreqs and impactNorms; null without them (version 1, a one-block term, no freqs).
   */
  readonly impactStarts: Uint32Array | null = null;
  readonly impactFreqs: Uint32Array | null = null;
  readonly impactNorms: Uint8Array | null = null;
  /** {@link SkipData.blockBounds}' last result, and the norm table it is for. */
  private bounds: Float64Array | null = null;
  private boundsFor: Float64Array | null = null;

  /**
   * Per block, the largest `freq * normInverse[norm]` of its docs: from the block's impacts when it
   * has them, else from its max frequency and min norm. Kept for the last norm table asked: the
   * tables are shared by every query of a snapshot (bm25NormCache), so a frequent term's blocks are
   * bounded once rather than their impacts walked again at every window of every query.
   */
  blockBounds(normInverse: Float64Array): Float64Array {
    if (this.boundsFor === normInverse && this.bounds !== null) return this.bounds;
    const n = this.numBlocks;
    const out = this.bounds ?? new Float64Array(n);
    const { impactStarts: starts, impactFreqs: freqs, impactNorms: norms } = this;
    for (let b = 0; b < n; b++) {
      let max = 0;
      if (starts === null || freqs === null || norms === null) {
        max = this.blockMaxFreqs[b] * normInverse[this.blockMinNorms[b]];
      } else {
        for (let i = starts[b], end = starts[b + 1]; i < end; i++) {
          const x = freqs[i] * normInverse[norms[i]];
          if (x > max) max = x;
        }
      }
      out[b] = max;
    }
    this.bounds = out;
    this.boundsFor = normInverse;
    return out;
  }

  constructor(bytes: Uint8Array, info: TermInfo, hasFreqs: boolean, hasPositions: boolean) {
    const df = info.docFreq;
    const numBlocks = Math.ceil(df / POSTINGS_BLOCK);
    this.numBlocks = numBlocks;
    this.blockLast = new Int32Array(numBlocks);
    this.blockOffset = new Float64Array(numBlocks);
    this.blockMaxFreqs = new Uint32Array(numBlocks);
    this.blockMinNorms = new Uint8Array(numBlocks);
    this.blockPositions = hasPositions ? new Uint32Array(numBlocks) : null;
    if (info.singletonDoc >= 0) {
      this.blockLast[0] = info.singletonDoc;
      this.blockMaxFreqs[0] = info.maxFreq;
      this.blockMinNorms[0] = info.minNorm;
      return;
    }
    const r = new ByteReader(bytes, info.postingsOffset);
    if (numBlocks === 1) {
      this.blockLast[0] = NO_MORE_DOCS - 1;
      this.blockOffset[0] = r.pos;
      this.blockMaxFreqs[0] = info.maxFreq;
      this.blockMinNorms[0] = info.minNorm;
      return;
    }
    const version = postingsVersion(bytes);
    if (version !== 1 && version !== POSTINGS_VERSION) {
      throw new YarrowError(ErrorCode.incompatibleFormat, `postings format version ${version} is not supported (this build reads 1 and ${POSTINGS_VERSION})`, {
        expected: `1 or ${POSTINGS_VERSION}`,
        actual: String(version),
      });
    }
    const impacts = hasFreqs && version !== 1;
    const starts = impacts ? new Uint32Array(numBlocks + 1) : null;
    const freqs: number[] = [];
    const norms: number[] = [];
    let last = -1;
    const lengths = new Uint32Array(numBlocks);
    for (let b = 0; b < numBlocks; b++) {
      last += r.readVarint();
      this.blockLast[b] = last;
      lengths[b] = r.readVarint();
      if (this.blockPositions !== null) this.blockPositions[b] = r.readVarint();
      if (starts !== null) {
        starts[b] = freqs.length;
        const count = r.readVarint();
        let f = 0;
        let n = 0;
        for (let i = 0; i < count; i++) {
          f += r.readVarint();
          n += r.readVarint();
          freqs.push(f);
          norms.push(n);
          // Ascending by both: the first pair has the min norm, the last the max freq.
          if (i === 0) this.blockMinNorms[b] = n;
        }
        this.blockMaxFreqs[b] = f;
      } else if (hasFreqs) {
        this.blockMaxFreqs[b] = r.readVarint();
        this.blockMinNorms[b] = r.readByte();
      } else {
        this.blockMaxFreqs[b] = 1;
      }
    }
    if (starts !== null) {
      starts[numBlocks] = freqs.length;
      this.impactStarts = starts;
      this.impactFreqs = Uint32Array.from(freqs);
      this.impactNorms = Uint8Array.from(norms);
    }
    let offset = r.pos;
    for (let b = 0; b < numBlocks; b++) {
      this.blockOffset[b] = offset;
      offset += lengths[b];
    }
  }
}

/**
 * Where an iterator gets a term's skip data: a {@link SkipDataCache} (one per postings file in
 * memory), or the term's own entry when its postings are read by position (postings-file.ts).
 */
export interface SkipSource {
  /** The skip data of the term `info` of `bytes`. */
  get(bytes: Uint8Array, info: TermInfo, hasFreqs: boolean, hasPositions: boolean): SkipData;
}

/**
 * A term's positions read on first use: a query that reads none (all but phrases) reads no
 * `.pos` bytes when the postings are read by position (postings-file.ts).
 */
export interface PositionsSource {
  /** The term's positions, at the offsets its (rebased) TermInfo gives. */
  positionsBytes(): Uint8Array;
}

/** The positions an iterator reads: in memory, read on first use, or none. */
export type Positions = Uint8Array | PositionsSource | null;

/**
 * Skip data of one segment's terms, by postings offset (a singleton, which has no postings of its
 * own, by its dictionary entry): a frequent term's block headers are decoded once rather than at
 * every query, and a rare term's one-block figures are not rebuilt either (less work and less
 * garbage per query, fewer GC pauses in the latency tail). Bounded by the blocks it holds (16k
 * blocks, about 280 KB); when full it starts over.
 */
export class SkipDataCache implements SkipSource {
  private readonly entries = new Map<number, SkipData>();
  /** Singletons by their (cached, so reused) TermInfo object. */
  private readonly singletons = new Map<TermInfo, SkipData>();
  private blocks = 0;

  constructor(private readonly maxBlocks = 1 << 14) {}

  /** The skip data of a term of `bytes` (the postings file this cache belongs to). */
  get(bytes: Uint8Array, info: TermInfo, hasFreqs: boolean, hasPositions: boolean): SkipData {
    const singleton = info.singletonDoc >= 0;
    let skip = singleton ? this.singletons.get(info) : this.entries.get(info.postingsOffset);
    if (skip === undefined) {
      skip = new SkipData(bytes, info, hasFreqs, hasPositions);
      if (this.blocks + skip.numBlocks > this.maxBlocks) {
        this.entries.clear();
        this.singletons.clear();
        this.blocks = 0;
      }
      if (singleton) this.singletons.set(info, skip);
      else this.entries.set(info.postingsOffset, skip);
      this.blocks += skip.numBlocks;
    }
    return skip;
  }
}

/** What a detached iterator points at (see PostingsIterator.detach). */
const NO_BYTES = new Uint8Array(0);

/**
 * A block's freqs are read one by one from the packed bits (PostingsIterator.freq) this many times
 * at most, then unpacked whole: a read costs a few byte loads, a whole block some 128 values' work.
 */
const FREQ_READS = 16;

/** Up to this many entries, an iterator's block buffers are two small on-heap typed arrays. */
const SMALL_BUFFER = 8;

/**
 * Block buffers (decoded docs and freqs, a whole block each) lent to the iterators of a search and
 * taken back when the search is done with them, so that a query does not allocate an off-heap
 * buffer per term and segment (a few hundred ns each; a query over three fields of nine segments
 * builds some fifty iterators). Lending is a stack: {@link BlockBufferPool.mark} before building
 * iterators, {@link BlockBufferPool.release} with that mark once none of them is used any more;
 * a search nested in between releases to its own mark and leaves the outer one's buffers alone.
 */
export class BlockBufferPool {
  private readonly docs: Int32Array[] = [];
  private readonly freqs: Uint32Array[] = [];
  /** The iterator built on pair i by {@link iterator}, reused by later searches (holes: none yet). */
  private readonly iterators: (PostingsIterator | undefined)[] = [];
  private used = 0;

  /** @param maxPairs buffer pairs kept for reuse (past it, iterators get buffers of their own) */
  constructor(private readonly maxPairs = 2048) {}

  /** How many pairs are lent now: the mark to {@link BlockBufferPool.release} back to. */
  get mark(): number {
    return this.used;
  }

  /** Takes back every pair lent since `mark`; the iterators holding them must not be used again. */
  release(mark: number): void {
    if (mark >= this.used) return;
    // The kept iterators let go of their segment's bytes: a segment merged away is not held.
    for (let i = mark, end = Math.min(this.used, this.iterators.length); i < end; i++) this.iterators[i]?.detach();
    this.used = mark;
  }

  /**
   * Lends a pair of {@link POSTINGS_BLOCK}-entry buffers and returns its index (for
   * {@link BlockBufferPool.docsAt} and {@link BlockBufferPool.freqsAt}); -1 when the pool is at its bound.
   */
  take(): number {
    const i = this.used;
    if (i >= this.maxPairs) return -1;
    if (i === this.docs.length) {
      const buffer = new ArrayBuffer(POSTINGS_BLOCK * 8);
      this.docs.push(new Int32Array(buffer, 0, POSTINGS_BLOCK));
      this.freqs.push(new Uint32Array(buffer, POSTINGS_BLOCK * 4, POSTINGS_BLOCK));
    }
    this.used = i + 1;
    return i;
  }

  /**
   * An iterator over a term, lent with a pair of buffers: the iterator object of that pair is
   * reused ({@link PostingsIterator.reset}), so that a query does not allocate one per term and
   * segment either (most of a short query's garbage). It may be used until the pool is released
   * to a mark from before this call, as the pair itself; past the pool's bound, a new iterator.
   */
  iterator(bytes: Uint8Array, positions: Positions, info: TermInfo, options: IndexOptions, skipCache: SkipSource | null): PostingsIterator {
    const used = this.used;
    const kept = used < this.maxPairs ? this.iterators[used] : undefined;
    if (kept === undefined) {
      // No iterator kept for this pair yet (or no pair left): build one, which takes the pair.
      const it = new PostingsIterator(bytes, positions, info, options, skipCache, this);
      if (used < this.maxPairs) this.iterators[used] = it;
      return it;
    }
    this.used = used + 1;
    kept.reset(bytes, positions, info, options, skipCache);
    return kept;
  }

  /** Docs buffer of pair `index`. */
  docsAt(index: number): Int32Array {
    return this.docs[index];
  }

  /** Freqs buffer of pair `index`. */
  freqsAt(index: number): Uint32Array {
    return this.freqs[index];
  }
}

/** Iterates one term's docs in increasing doc id order. */
export class PostingsIterator {
  /** The current doc id: -1 before the first call, {@link NO_MORE_DOCS} when exhausted. */
  doc = -1;
  // Not readonly: a pooled iterator is re-aimed at another term by reset() (BlockBufferPool.iterator).
  private numBlocks!: number;
  private blockLast!: Int32Array;
  private blockOffset!: Float64Array;
  private blockPositions!: Uint32Array | null;
  private blockMaxFreqs!: Uint32Array;
  private blockMinNorms!: Uint8Array;
  private skip!: SkipData;
  /** Decoded docs and freqs of the current block, sized to the term's largest block. */
  private docs: Int32Array;
  private freqs: Uint32Array;
  private hasFreqs!: boolean;
  private bytes!: Uint8Array;
  private positions!: Positions;
  private info!: TermInfo;
  /** Index of the decoded block, -1 when none. */
  private block = -1;
  private blockCount = 0;
  /**
   * Offset of the current block's packed freqs, or -1 once decoded: freqs are decoded on first use,
   * since most blocks a conjunction moves through are only searched for a doc, never scored.
   */
  private pendingFreqs = -1;
  /** freq() calls answered from the packed bits since the block was decoded. */
  private freqReads = 0;
  /** The index of the last of those reads (-2 when none). */
  private lastFreqIndex = -2;
  private index = 0;
  /** Block whose bounds advanceShallow exposes. */
  private shallowBlock = 0;
  /** Made on the first readPositions (only phrases and merges read positions). */
  private posReader: ByteReader | null = null;
  /** Start of the current block's positions in `positions`. */
  private posBlockStart = 0;
  private posDocIndex = 0;
  /** boundsUpTo's result, made on its first call (the scorers use maxFreqNormUpTo). */
  private bounds: { maxFreq: number; minNorm: number } | null = null;

  /**
   * @param skipCache where a multi-block term's skip data is shared between queries (one cache per
   *   postings file), or null to decode it for this iterator alone
   * @param buffers where to borrow the block buffers from, or
   *   null for buffers of its own (see {@link BlockBufferPool} for how long they may be used)
   */
  constructor(
    bytes: Uint8Array,
    positions: Positions,
    info: TermInfo,
    options: IndexOptions,
    skipCache: SkipSource | null = null,
    buffers: BlockBufferPool | null = null,
  ) {
    // A rare term's buffers hold its few docs rather than a whole block: most iterators of a query
    // are rare terms' (a query term in a field or segment where it hardly occurs), and small typed
    // arrays live on the V8 heap instead of each taking an off-heap buffer.
    const capacity = Math.max(1, Math.min(POSTINGS_BLOCK, info.docFreq));
    // Lent buffers serve short terms too: no allocation at all.
    const lent = buffers === null ? -1 : buffers.take();
    if (lent >= 0 && buffers !== null) {
      this.docs = buffers.docsAt(lent);
      this.freqs = buffers.freqsAt(lent);
    } else if (capacity <= SMALL_BUFFER) {
      this.docs = new Int32Array(capacity);
      this.freqs = new Uint32Array(capacity);
    } else {
      const buffer = new ArrayBuffer(capacity * 8);
      this.docs = new Int32Array(buffer, 0, capacity);
      this.freqs = new Uint32Array(buffer, capacity * 4, capacity);
    }
    this.reset(bytes, positions, info, options, skipCache);
  }

  /**
   * Aims this iterator at another term (of any segment), before its first doc; its block buffers
   * must hold a whole block ({@link BlockBufferPool.iterator}'s do).
   */
  reset(bytes: Uint8Array, positions: Positions, info: TermInfo, options: IndexOptions, skipCache: SkipSource | null): void {
    this.bytes = bytes;
    this.positions = positions;
    this.info = info;
    this.hasFreqs = options === IndexOptions.docsFreqsPositions;
    this.doc = -1;
    this.block = -1;
    this.blockCount = 0;
    this.pendingFreqs = -1;
    this.index = 0;
    this.shallowBlock = 0;
    this.posReader = null;
    this.posBlockStart = info.positionsOffset;
    this.posDocIndex = 0;
    const hasPositions = this.hasFreqs && positions !== null;
    const skip = skipCache !== null
      ? skipCache.get(bytes, info, this.hasFreqs, hasPositions)
      : new SkipData(bytes, info, this.hasFreqs, hasPositions);
    this.skip = skip;
    this.numBlocks = skip.numBlocks;
    this.blockLast = skip.blockLast;
    this.blockOffset = skip.blockOffset;
    this.blockPositions = skip.blockPositions;
    this.blockMaxFreqs = skip.blockMaxFreqs;
    this.blockMinNorms = skip.blockMinNorms;
  }

  /** Drops the references to its segment's postings and positions bytes (a pooled iterator at rest). */
  detach(): void {
    this.bytes = NO_BYTES;
    this.positions = null;
    this.posReader = null;
  }

  /**
   * Whether the term's docs are one block (at most {@link POSTINGS_BLOCK}): its skip data bounds the
   * whole segment at once, and advancing it decodes that one block and nothing else.
   */
  get singleBlock(): boolean {
    return this.numBlocks === 1;
  }

  /** Number of docs of the term (an estimate of the cost of iterating it). */
  get cost(): number {
    return this.info.docFreq;
  }

  /** Moves to the next doc and returns it. */
  nextDoc(): number {
    if (this.doc === NO_MORE_DOCS) return NO_MORE_DOCS;
    if (this.index + 1 < this.blockCount) {
      this.index++;
      return (this.doc = this.docs[this.index]!);
    }
    if (this.block + 1 >= this.numBlocks) return (this.doc = NO_MORE_DOCS);
    this.decodeBlock(this.block + 1);
    return (this.doc = this.docs[0]!);
  }

  /** Moves to the first doc >= target and returns it. */
  advance(target: number): number {
    if (target <= this.doc) return this.doc;
    if (this.block < 0 || target > this.blockLast[this.block]) {
      let b = this.block < 0 ? 0 : this.block + 1;
      while (b < this.numBlocks && this.blockLast[b] < target) b++;
      if (b >= this.numBlocks) return (this.doc = NO_MORE_DOCS);
      this.decodeBlock(b);
    }
    const docs = this.docs;
    let i = this.index;
    const n = this.blockCount;
    while (i < n && docs[i] < target) i++;
    if (i >= n) {
      // Only possible for the single unbounded block: target is past its last doc.
      if (this.block + 1 >= this.numBlocks) return (this.doc = NO_MORE_DOCS);
      this.decodeBlock(this.block + 1);
      return (this.doc = this.docs[0]!);
    }
    this.index = i;
    return (this.doc = docs[i]!);
  }

  /** Frequency of the term in the current doc (1 for fields without frequencies). */
  freq(): number {
    if (!this.hasFreqs) return 1;
    const at = this.pendingFreqs;
    if (at >= 0) {
      // A conjunction scores a few docs of most blocks it moves through: their freqs are read one
      // by one from the packed bits, and the block's are unpacked whole only once that would cost
      // less, at once for a doc next to the last one read (a scan that scores every doc, a merge),
      // or for a value too wide to read from four bytes.
      const index = this.index;
      if (this.freqReads < FREQ_READS && index !== this.lastFreqIndex + 1) {
        this.freqReads++;
        this.lastFreqIndex = index;
        const f = packedValue(this.bytes, at, index);
        if (f >= 0) return f + 1;
      }
      this.decodeFreqs();
    }
    return this.freqs[this.index] + 1;
  }

  private decodeFreqs(): void {
    const bytes = this.bytes;
    const offset = this.pendingFreqs;
    this.pendingFreqs = -1;
    unpackFreqs(bytes, offset + 1, this.blockCount, bytes[offset], this.freqs);
  }

  /**
   * Positions the shallow cursor on the block that contains `target` without decoding it, and
   * returns that block's last doc id ({@link NO_MORE_DOCS} when target is past the last block).
   */
  advanceShallow(target: number): number {
    let b = this.shallowBlock;
    while (b < this.numBlocks && this.blockLast[b] < target) b++;
    this.shallowBlock = b;
    return b < this.numBlocks ? this.blockLast[b] : NO_MORE_DOCS;
  }

  /**
   * Max frequency and min norm over the blocks from the shallow block through the block holding
   * `upTo` (maxFreq 0 when no block remains). The result object is reused between calls.
   */
  boundsUpTo(upTo: number): { maxFreq: number; minNorm: number } {
    const out = (this.bounds ??= { maxFreq: 0, minNorm: 255 });
    let maxFreq = 0;
    let minNorm = 255;
    for (let b = this.shallowBlock; b < this.numBlocks; b++) {
      const f = this.blockMaxFreqs[b];
      if (f > maxFreq) maxFreq = f;
      const n = this.blockMinNorms[b];
      if (n < minNorm) minNorm = n;
      if (this.blockLast[b] >= upTo) break;
    }
    out.maxFreq = maxFreq;
    out.minNorm = minNorm;
    return out;
  }

  /**
   * The largest `freq * normInverse[norm]` a doc can have in the blocks from the shallow block
   * through the block holding `upTo` (0 when no block remains): BM25 grows with it, so the bound of
   * a score is the score of this product. The max of {@link SkipData.blockBounds} over the blocks.
   */
  maxFreqNormUpTo(upTo: number, normInverse: Float64Array): number {
    const bounds = this.skip.blockBounds(normInverse);
    let max = 0;
    for (let b = this.shallowBlock; b < this.numBlocks; b++) {
      const x = bounds[b];
      if (x > max) max = x;
      if (this.blockLast[b] >= upTo) break;
    }
    return max;
  }

  /** Reads the positions of the current doc into `out` (which must hold freq() entries). */
  readPositions(out: Int32Array): number {
    if (this.positions === null || !this.hasFreqs) return 0;
    let r = this.posReader;
    if (r === null) {
      const p = this.positions;
      r = this.posReader = new ByteReader(p instanceof Uint8Array ? p : p.positionsBytes(), this.posBlockStart);
    }
    if (this.pendingFreqs >= 0) this.decodeFreqs();
    // Skip the positions of the docs of this block before the current one.
    const freqs = this.freqs;
    while (this.posDocIndex < this.index) {
      const f = freqs[this.posDocIndex] + 1;
      for (let j = 0; j < f; j++) r.readVarint();
      this.posDocIndex++;
    }
    const f = freqs[this.index] + 1;
    let pos = 0;
    for (let j = 0; j < f; j++) {
      pos += r.readVarint();
      out[j] = pos;
    }
    this.posDocIndex++;
    return f;
  }

  private decodeBlock(b: number): void {
    this.block = b;
    this.index = 0;
    this.posDocIndex = 0;
    if (this.blockPositions !== null) {
      this.posBlockStart = this.info.positionsOffset + this.blockPositions[b];
      if (this.posReader !== null) this.posReader.pos = this.posBlockStart;
    }
    this.pendingFreqs = -1;
    this.freqReads = 0;
    this.lastFreqIndex = -2;
    if (this.info.singletonDoc >= 0) {
      this.docs[0] = this.info.singletonDoc;
      this.freqs[0] = this.info.totalTermFreq - 1;
      this.blockCount = 1;
      return;
    }
    const n = Math.min(POSTINGS_BLOCK, this.info.docFreq - b * POSTINGS_BLOCK);
    this.blockCount = n;
    const bytes = this.bytes;
    let offset = this.blockOffset[b];
    const docBits = bytes[offset++];
    offset = unpackDocs(bytes, offset, n, docBits, this.docs, b === 0 ? -1 : this.blockLast[b - 1]);
    // The freqs (bit width, then the packed values) follow the docs; decoded by freq() if asked.
    if (this.hasFreqs) this.pendingFreqs = offset;
  }
}

/**
 * The offset after a bit-packed run of `count` values of `bits` bits from `offset`, checked to lie
 * within `bytes` (a corrupt width or count is refused before any value is read).
 */
function packedRunEnd(bytes: Uint8Array, offset: number, count: number, bits: number): number {
  const end = offset + ((count * bits + 7) >>> 3);
  if (end > bytes.length || count > POSTINGS_BLOCK || bits > 31) {
    throw new YarrowError(ErrorCode.corruptIndex, `bit-packed block of ${count} x ${bits} bits at offset ${offset} runs past the data`, { offset });
  }
  return end;
}

/**
 * The little-endian 32-bit word at `p`, with the bytes at or past `end` read as zeros (a run's
 * last word may be partial; past it, the word is 0).
 */
function wordAt(bytes: Uint8Array, p: number, end: number): number {
  if (p + 4 <= end) return bytes[p] | (bytes[p + 1] << 8) | (bytes[p + 2] << 16) | (bytes[p + 3] << 24);
  let w = 0;
  for (let s = 0; p < end; p++, s += 8) w |= bytes[p] << s;
  return w;
}

/**
 * Decodes a block's `count` doc deltas of `bits` bits each, packed from `offset` by packBlock
 * (bitpacking.ts: a stream of little-endian bytes, each value's low bit first), into the docs they
 * encode (each doc minus the previous minus one, the first after `base`); returns the offset past
 * them. bitpacking.ts's unpackBlock and the running sum in one pass instead of three (bytes to
 * words, words to values, deltas to docs): values are taken from a 32-bit accumulator refilled
 * four bytes at a time; only a last refill that would reach past the data reads byte by byte.
 */
function unpackDocs(bytes: Uint8Array, offset: number, count: number, bits: number, out: Int32Array, base: number): number {
  const end = packedRunEnd(bytes, offset, count, bits);
  let doc = base;
  if (bits === 0) {
    for (let i = 0; i < count; i++) out[i] = ++doc;
    return end;
  }
  const mask = 0xffff_ffff >>> (32 - bits);
  let p = offset;
  let acc = 0;
  let avail = 0;
  for (let i = 0; i < count; i++) {
    let v: number;
    if (avail >= bits) {
      v = acc & mask;
      acc >>>= bits;
      avail -= bits;
    } else {
      const w = wordAt(bytes, p, end);
      p += 4;
      // The value's low `avail` bits are the accumulator's, the rest the new word's low bits.
      v = (acc | (w << avail)) & mask;
      const used = bits - avail;
      acc = w >>> used;
      avail = 32 - used;
    }
    doc += v + 1;
    out[i] = doc;
  }
  return end;
}

/**
 * Decodes a block's `count` frequencies (each minus one) of `bits` bits each, packed from `offset`,
 * into `out`: {@link unpackDocs} without the running sum (a function of its own, so that each keeps
 * one typed array type at its stores).
 */
function unpackFreqs(bytes: Uint8Array, offset: number, count: number, bits: number, out: Uint32Array): void {
  const end = packedRunEnd(bytes, offset, count, bits);
  if (bits === 0) {
    out.fill(0, 0, count);
    return;
  }
  const mask = 0xffff_ffff >>> (32 - bits);
  let p = offset;
  let acc = 0;
  let avail = 0;
  for (let i = 0; i < count; i++) {
    if (avail >= bits) {
      out[i] = acc & mask;
      acc >>>= bits;
      avail -= bits;
    } else {
      const w = wordAt(bytes, p, end);
      p += 4;
      out[i] = (acc | (w << avail)) & mask;
      const used = bits - avail;
      acc = w >>> used;
      avail = 32 - used;
    }
  }
}

/**
 * Value `index` of a bit-packed run (its width in the byte at `at`, the values from `at + 1`, as
 * {@link unpackFreqs} reads them), or -1 when the width is over 24 bits (the value and its offset
 * in its first byte could then need five bytes).
 */
function packedValue(bytes: Uint8Array, at: number, index: number): number {
  const bits = bytes[at];
  if (bits === 0) return 0;
  if (bits > 24) return -1;
  const bit = index * bits;
  const shift = bit & 7;
  let p = at + 1 + (bit >>> 3);
  // Only the bytes holding the value's bits: none past the run.
  let word = bytes[p++];
  for (let got = 8; got < shift + bits; got += 8) word |= bytes[p++] << got;
  return (word >>> shift) & (0xffff_ffff >>> (32 - bits));
}
