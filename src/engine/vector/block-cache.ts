/**
 * The shared, bounded page cache of the vector files a search process reads by position: what
 * mmap and the OS page cache give Lucene, done by hand because Node has no mmap. Pages of every
 * open vectors and graph file share one pool preallocated to the byte budget, so a search
 * process's vector memory is set by configuration, not by the size of its indexes.
 *
 * The pool lives in the distance kernels' linear memory, after a scratch area (the query record,
 * the ordinals and record addresses of a batch, its scores), so the WebAssembly kernels score a
 * cached record where it lies, with no copy. A WebAssembly memory that is allocated but never
 * touched costs no resident memory, so a large budget costs only what is used.
 *
 * Eviction is CLOCK (second chance): a hit sets the page's reference bit, the hand clears bits
 * until it finds a page without one. A batch of scores resolves up to SCORE_BATCH record
 * addresses before one kernel call, so pages resolved in the current batch are pinned: the hand
 * skips them, and when every page is pinned {@link BlockCache.page} returns -1 and the caller
 * scores what it has resolved and starts a new batch. Any budget of at least one page therefore
 * gives the same answers, only slower.
 */
import type { RandomAccessFile } from '../directory.js';
import { ErrorCode, YarrowError } from '../errors.js';
import { createDistanceKernels, type DistanceKernels, type KernelKind } from './kernels/distance-kernels.js';
import { SCORE_BATCH } from './vector-store.js';
import { VisitedSet } from './visited-set.js';


/**
 * Default page size. A graph walk reads one record per page it touches, so when the cache is
 * smaller than the data smaller pages waste less of each read (measured on 20k x 384 int8 with a
 * cache a quarter of the files: p50 0.77 ms at 4 KiB, 0.90 at 8 KiB, 1.74 at 16 KiB); 8 KiB still
 * fits a float32 record of up to 2,040 dimensions (larger records are held in memory instead).
 */
export const DEFAULT_PAGE_SIZE = 8 * 1024;

/** Default budget: room for the vectors and graph of ~400k int8 vectors of 384 dimensions. */
export const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;

/** Options of a {@link BlockCache}. */
export interface BlockCacheOptions {
  /** Bytes of cached pages at most (rounded down to whole pages, at least one page). */
  budgetBytes?: number;
  /** Bytes per page, a power of two of at least 4 KiB; a record must fit one page. */
  pageSize?: number;
  /** The kernels to run (tests compare the JavaScript fallback). */
  kernels?: KernelKind;
}

/**
 * A file (one paged structure of it) registered with a cache. `table[page]` is the page's slot
 * + 1, 0 when it is not cached: a page lookup is an array load, not a hash lookup (half a byte
 * per int8 vector of 384 dimensions at 8 KiB pages).
 */
export interface CachedFile {
  readonly file: RandomAccessFile;
  readonly table: Int32Array;
}

/** Counters for metrics. */
export interface BlockCacheStats {
  hits: number;
  misses: number;
  evictions: number;
  /** Bytes read from files into the cache. */
  bytesRead: number;
  /** Pages in use and the pool's capacity. */
  pagesUsed: number;
  pages: number;
  pageSize: number;
  budgetBytes: number;
}

/** A bounded page cache over positional files, in the kernels' memory. */
export class BlockCache {
  readonly pageSize: number;
  readonly pages: number;
  readonly kernels: DistanceKernels;
  /** Scratch: the query record (one page long, so any record fits). */
  readonly queryPtr = 0;
  /** Scratch: SCORE_BATCH int32 ordinals. */
  readonly idsPtr: number;
  /** Scratch: SCORE_BATCH int32 record addresses. */
  readonly ptrsPtr: number;
  /** Scratch: SCORE_BATCH float32 scores. */
  readonly outPtr: number;
  /** Views of the whole memory (it never grows, so they never detach). */
  readonly u8: Uint8Array;
  readonly i8: Int8Array;
  readonly i32: Int32Array;
  readonly f32: Float32Array;
  readonly ids: Int32Array;
  readonly ptrs: Int32Array;
  readonly out: Float32Array;
  /** Visited marks of graph walks, shared by every graph (searches are synchronous). */
  readonly visited = new VisitedSet(0);
  private readonly poolPtr: number;
  /** Per slot: the structure its page belongs to (undefined when free) and the page number. */
  private readonly owners: (CachedFile | undefined)[];
  private readonly pageNos: Int32Array;
  private readonly referenced: Uint8Array;
  private readonly pinnedIn: Uint32Array;
  /** Free pages, a stack (all of them at first, in order). */
  private readonly freeSlots: Int32Array;
  private freeCount: number;
  private hand = 0;
  private batch = 1;
  private counters = { hits: 0, misses: 0, evictions: 0, bytesRead: 0 };

  constructor(options: BlockCacheOptions = {}) {
    const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(Math.log2(pageSize)) || pageSize < 4096) throw new RangeError(`page size must be a power of two of at least 4096, got ${pageSize}`);
    const budget = options.budgetBytes ?? DEFAULT_CACHE_BYTES;
    if (!Number.isSafeInteger(budget) || budget < pageSize) throw new RangeError(`vector cache budget must be at least one page (${pageSize} bytes), got ${budget}`);
    this.pageSize = pageSize;
    this.pages = Math.floor(budget / pageSize);
    this.idsPtr = this.queryPtr + pageSize;
    this.ptrsPtr = this.idsPtr + SCORE_BATCH * 4;
    this.outPtr = this.ptrsPtr + SCORE_BATCH * 4;
    this.poolPtr = this.outPtr + SCORE_BATCH * 4;
    this.kernels = createDistanceKernels(this.poolPtr + this.pages * pageSize, options.kernels === undefined ? {} : { kind: options.kernels });
    const buf = this.kernels.buffer;
    this.u8 = new Uint8Array(buf);
    this.i8 = new Int8Array(buf);
    this.i32 = new Int32Array(buf);
    this.f32 = new Float32Array(buf);
    this.ids = new Int32Array(buf, this.idsPtr, SCORE_BATCH);
    this.ptrs = new Int32Array(buf, this.ptrsPtr, SCORE_BATCH);
    this.out = new Float32Array(buf, this.outPtr, SCORE_BATCH);
    this.owners = new Array<CachedFile | undefined>(this.pages).fill(undefined);
    this.pageNos = new Int32Array(this.pages);
    this.referenced = new Uint8Array(this.pages);
    this.pinnedIn = new Uint32Array(this.pages);
    this.freeSlots = new Int32Array(this.pages);
    for (let i = 0; i < this.pages; i++) this.freeSlots[i] = this.pages - 1 - i;
    this.freeCount = this.pages;
  }

  /** The configured budget (whole pages). */
  get budgetBytes(): number {
    return this.pages * this.pageSize;
  }

  /** Hit, miss and eviction counters and the pool's occupancy. */
  stats(): BlockCacheStats {
    return { ...this.counters, pagesUsed: this.pages - this.freeCount, pages: this.pages, pageSize: this.pageSize, budgetBytes: this.budgetBytes };
  }

  /**
   * Gives an open file an id to cache its pages under (one per paged structure of the file: page
   * numbers count from each structure's start). The cache does not hold the file: its
   * readers do, so a dropped reader's file is closed when collected, and its pages, never hit
   * again, are the first the hand evicts.
   */
  register(file: RandomAccessFile, pages: number): CachedFile {
    return { file, table: new Int32Array(pages) };
  }

  /** Frees a file's pages and closes it (a reader that knows it is done, or failed to open). */
  unregister(cached: CachedFile): void {
    for (let slot = 0; slot < this.pages; slot++) {
      if (this.owners[slot] === cached) this.free(slot);
    }
    cached.file.close();
  }

  /** Starts a new batch: pages resolved before it may be evicted again. */
  newBatch(): void {
    if (++this.batch === 0xffffffff) {
      this.pinnedIn.fill(0);
      this.batch = 1;
    }
  }

  /**
   * The address in kernel memory of page `page` of `cached` (its bytes [position, position
   * + length) of the file, length <= pageSize), read on a miss; pinned until the next
   * {@link newBatch}. Returns -1 when every page is pinned by the current batch.
   */
  page(cached: CachedFile, page: number, position: number, length: number): number {
    let slot = cached.table[page] - 1;
    if (slot >= 0) {
      this.counters.hits++;
      this.referenced[slot] = 1;
      this.pinnedIn[slot] = this.batch;
      return this.poolPtr + slot * this.pageSize;
    }
    slot = this.victim();
    if (slot < 0) return -1;
    this.counters.misses++;
    const at = this.poolPtr + slot * this.pageSize;
    const file = cached.file;
    const read = file.read(this.u8.subarray(at, at + length), position);
    if (read !== length) {
      throw new YarrowError(ErrorCode.corruptIndex, `${file.name}: ${length} bytes at ${position} run past the end of the file (${file.size} bytes)`, { file: file.name });
    }
    this.counters.bytesRead += length;
    this.owners[slot] = cached;
    this.pageNos[slot] = page;
    cached.table[page] = slot + 1;
    this.referenced[slot] = 1;
    this.pinnedIn[slot] = this.batch;
    return at;
  }

  /** A free page, or the first unreferenced unpinned one under the hand; -1 when all are pinned. */
  private victim(): number {
    if (this.freeCount > 0) return this.freeSlots[--this.freeCount];
    for (let step = 0; step < 2 * this.pages; step++) {
      const slot = this.hand;
      this.hand = slot + 1 === this.pages ? 0 : slot + 1;
      if (this.pinnedIn[slot] === this.batch) continue;
      if (this.referenced[slot] === 1) {
        this.referenced[slot] = 0;
        continue;
      }
      this.counters.evictions++;
      this.forget(slot);
      return slot;
    }
    return -1;
  }

  /** Unlinks a slot from the table of the structure that owned it. */
  private forget(slot: number): void {
    const owner = this.owners[slot];
    if (owner !== undefined) owner.table[this.pageNos[slot]] = 0;
    this.owners[slot] = undefined;
  }

  private free(slot: number): void {
    this.forget(slot);
    this.referenced[slot] = 0;
    this.freeSlots[this.freeCount++] = slot;
  }
}
