/**
 * The records of a vectors file read by position through the shared {@link BlockCache}, scored
 * where they lie in the cache's pages. A page of the file holds whole records
 * (floor(pageSize / stride) of them), so a record never straddles two pages and its address is a
 * page address plus an offset; records are 16-byte multiples and pages 16-byte aligned, as the
 * kernels want.
 *
 * Scoring by ordinal resolves each ordinal to a record address into the cache's `ptrs` scratch
 * and runs the kernels' ids form over them with base 0 and stride 1 (address = id). Pages
 * resolved in a batch stay pinned until the batch is scored, so an eviction can never pull a
 * page from under an address already resolved; when the cache is too small for a whole batch,
 * the part resolved so far is scored first.
 */
import type { RandomAccessFile } from '../directory.js';
import type { BlockCache, CachedFile } from './block-cache.js';
import { dequantizeInt8, quantizeInt8, VectorEncoding } from './quantization.js';
import { recordLayout, type PreparedQuery, type RecordScorer } from './vector-store.js';

/** Geometry of the records section of a vectors file. */
export interface RecordsLayout {
  dim: number;
  encoding: VectorEncoding;
  count: number;
  /** File position of record 0. */
  position: number;
}

/** Vector records on storage, read through a block cache. */
export class PagedVectorStore implements RecordScorer {
  readonly dim: number;
  readonly encoding: VectorEncoding;
  readonly count: number;
  readonly lanes: number;
  readonly stride: number;
  private readonly perPage: number;
  private readonly position: number;
  private readonly file: CachedFile;

  constructor(
    private readonly cache: BlockCache,
    file: RandomAccessFile,
    layout: RecordsLayout,
  ) {
    ({ dim: this.dim, encoding: this.encoding, count: this.count, position: this.position } = layout);
    ({ lanes: this.lanes, stride: this.stride } = recordLayout(this.dim, this.encoding));
    if (this.stride > cache.pageSize) throw new RangeError(`a ${this.stride}-byte record does not fit a ${cache.pageSize}-byte cache page`);
    this.perPage = Math.floor(cache.pageSize / this.stride);
    this.file = cache.register(file, Math.ceil(this.count / this.perPage));
  }

  get ids(): Int32Array {
    return this.cache.ids;
  }

  get out(): Float32Array {
    return this.cache.out;
  }

  prepareQuery(v: Float32Array): PreparedQuery {
    if (v.length !== this.dim) throw new RangeError(`query vector has ${v.length} dimensions, the field has ${this.dim}`);
    const c = this.cache;
    if (this.encoding === VectorEncoding.float32) {
      c.f32.fill(0, c.queryPtr >> 2, (c.queryPtr + this.stride) >> 2);
      c.f32.set(v, c.queryPtr >> 2);
      return { ptr: c.queryPtr, scale: 1 };
    }
    c.i8.fill(0, c.queryPtr, c.queryPtr + this.lanes);
    return { ptr: c.queryPtr, scale: quantizeInt8(v, c.i8, c.queryPtr) };
  }

  scoreIds(q: PreparedQuery, count: number): void {
    const c = this.cache;
    const ids = c.ids;
    const ptrs = c.ptrs;
    c.newBatch();
    let start = 0;
    for (let i = 0; i < count; i++) {
      let p = this.address(ids[i]);
      if (p < 0) {
        this.scorePtrs(q, start, i);
        c.newBatch();
        start = i;
        p = this.address(ids[i]);
      }
      ptrs[i] = p;
    }
    this.scorePtrs(q, start, count);
  }

  scoreRange(q: PreparedQuery, first: number, count: number): void {
    const k = this.cache.kernels;
    for (let done = 0; done < count; ) {
      const ord = first + done;
      const page = Math.floor(ord / this.perPage);
      const inPage = ord - page * this.perPage;
      const n = Math.min(count - done, this.perPage - inPage);
      this.cache.newBatch();
      const base = this.pageAddress(page);
      const out = this.cache.outPtr + done * 4;
      if (this.encoding === VectorEncoding.float32) k.dotF32Range(q.ptr, base, this.stride, this.lanes, inPage, n, out);
      else k.dotI8Range(q.ptr, q.scale, base, this.stride, this.lanes, inPage, n, out);
      done += n;
    }
  }

  score(q: PreparedQuery, ord: number): number {
    this.cache.newBatch();
    const v = this.address(ord);
    const k = this.cache.kernels;
    if (this.encoding === VectorEncoding.float32) return k.dotF32(q.ptr, v, this.lanes);
    return q.scale * this.cache.f32[(v + this.lanes) >> 2] * k.dotI8(q.ptr, v, this.lanes);
  }

  vector(ord: number, out = new Float32Array(this.dim)): Float32Array {
    this.cache.newBatch();
    const at = this.address(ord);
    const c = this.cache;
    if (this.encoding === VectorEncoding.float32) {
      out.set(c.f32.subarray(at >> 2, (at >> 2) + this.dim));
      return out;
    }
    return dequantizeInt8(c.i8, at, this.dim, c.f32[(at + this.lanes) >> 2], out);
  }

  record(ord: number): Uint8Array {
    this.cache.newBatch();
    const at = this.address(ord);
    return this.cache.u8.subarray(at, at + this.stride);
  }

  /** The cache address of record `ord`, -1 when every page is pinned by the current batch. */
  private address(ord: number): number {
    const page = Math.floor(ord / this.perPage);
    const base = this.pageAddress(page);
    return base < 0 ? -1 : base + (ord - page * this.perPage) * this.stride;
  }

  private pageAddress(page: number): number {
    const first = page * this.perPage;
    const n = Math.min(this.perPage, this.count - first);
    return this.cache.page(this.file, page, this.position + first * this.stride, n * this.stride);
  }

  /** Scores the resolved addresses [from, to) of the batch into the same slots of `out`. */
  private scorePtrs(q: PreparedQuery, from: number, to: number): void {
    if (to <= from) return;
    const c = this.cache;
    const ptrs = c.ptrsPtr + from * 4;
    const out = c.outPtr + from * 4;
    if (this.encoding === VectorEncoding.float32) c.kernels.dotF32Ids(q.ptr, 0, 1, this.lanes, ptrs, to - from, out);
    else c.kernels.dotI8Ids(q.ptr, q.scale, 0, 1, this.lanes, ptrs, to - from, out);
  }
}
