/**
 * The vectors of one field of one segment as fixed-width records in the kernels' linear memory,
 * addressed by ordinal (0..count-1), plus the scratch slots the kernels read and write:
 *
 *   [query record][ids: BATCH x int32][out: BATCH x float32][record 0][record 1]...
 *
 * A record is the vector padded with zeros to the kernels' lane multiple; an int8 record also
 * carries its float32 scale right after the codes (then 12 bytes of padding to keep 16-byte
 * alignment). The records region is last, so appending grows the memory in place.
 */
import { createDistanceKernels, type DistanceKernels, type KernelKind } from './kernels/distance-kernels.js';
import { quantizeInt8, dequantizeInt8, VectorEncoding } from './quantization.js';

/** Most ordinals scored by one batch kernel call. */
export const SCORE_BATCH = 1024;

/** Record geometry for a dimension and encoding. */
export function recordLayout(dim: number, encoding: VectorEncoding): { lanes: number; stride: number } {
  if (encoding === VectorEncoding.float32) {
    const lanes = Math.ceil(dim / 8) * 8;
    return { lanes, stride: lanes * 4 };
  }
  const lanes = Math.ceil(dim / 16) * 16;
  return { lanes, stride: lanes + 16 };
}

/** A query prepared for scoring: its record pointer and (int8) scale. */
export interface PreparedQuery {
  ptr: number;
  scale: number;
}

/**
 * What graph search and exact search need of a set of records: batch scoring by ordinal through
 * the scratch {@link ids} / {@link out}. {@link VectorStore} holds the records in memory; a
 * PagedVectorStore reads them by position through the shared block cache.
 */
export interface RecordScorer {
  readonly dim: number;
  readonly encoding: VectorEncoding;
  readonly count: number;
  /** Scratch ordinals for {@link scoreIds}. */
  readonly ids: Int32Array;
  /** Scratch scores written by {@link scoreIds} and {@link scoreRange}. */
  readonly out: Float32Array;
  /** Copies `v` into the query slot (quantized for int8). */
  prepareQuery(v: Float32Array): PreparedQuery;
  /** Scores `q` against the first `count` ordinals of {@link ids} into {@link out}. */
  scoreIds(q: PreparedQuery, count: number): void;
  /** Scores `q` against ordinals [first, first + count) (count <= SCORE_BATCH) into {@link out}. */
  scoreRange(q: PreparedQuery, first: number, count: number): void;
  /** Similarity of `q` and record `ord`. */
  score(q: PreparedQuery, ord: number): number;
  /** The float values of record `ord` (dequantized for int8). */
  vector(ord: number, out?: Float32Array): Float32Array;
  /** The raw bytes of record `ord` (a view, valid until the next call on the store). */
  record(ord: number): Uint8Array;
}

/** Flat vector records in kernel memory, with batch scoring. */
export class VectorStore implements RecordScorer {
  readonly lanes: number;
  readonly stride: number;
  private readonly kernels: DistanceKernels;
  private readonly queryPtr = 0;
  private readonly idsPtr: number;
  private readonly outPtr: number;
  private readonly base: number;
  private size = 0;
  private capacity: number;
  private idsView!: Int32Array;
  private outView!: Float32Array;
  private f32View!: Float32Array;
  private i8View!: Int8Array;
  private u8View!: Uint8Array;

  /** @param capacity records to reserve (the memory grows past it as needed). */
  constructor(
    readonly dim: number,
    readonly encoding: VectorEncoding,
    capacity = 1024,
    kind?: KernelKind,
  ) {
    if (!Number.isInteger(dim) || dim < 1 || dim > 65536) throw new RangeError(`vector dimension must be an integer in [1, 65536], got ${dim}`);
    ({ lanes: this.lanes, stride: this.stride } = recordLayout(dim, encoding));
    this.idsPtr = align16(this.queryPtr + this.stride);
    this.outPtr = this.idsPtr + SCORE_BATCH * 4;
    this.base = this.outPtr + SCORE_BATCH * 4;
    this.capacity = Math.max(1, capacity);
    this.kernels = createDistanceKernels(this.base + this.capacity * this.stride, kind === undefined ? {} : { kind });
    this.refreshViews();
  }

  /** Which kernels run (WebAssembly SIMD or the JavaScript fallback). */
  get kernelKind(): KernelKind {
    return this.kernels.kind;
  }

  /** Number of records. */
  get count(): number {
    return this.size;
  }

  /** Bytes of kernel memory in use. */
  get memoryBytes(): number {
    return this.kernels.buffer.byteLength;
  }

  /**
   * Scratch: ordinals for {@link scoreIds}. Re-read after every append (growth replaces it; only
   * appends grow the memory, and they refresh the views).
   */
  get ids(): Int32Array {
    return this.idsView;
  }

  /** Scratch: scores written by {@link scoreIds} and {@link scoreRange}. */
  get out(): Float32Array {
    return this.outView;
  }

  /** Appends a vector (already normalised for cosine); returns its ordinal. */
  append(v: Float32Array): number {
    if (v.length !== this.dim) throw new RangeError(`vector has ${v.length} dimensions, the field has ${this.dim}`);
    const ord = this.size;
    this.ensureCapacity(ord + 1);
    const at = this.base + ord * this.stride;
    if (this.encoding === VectorEncoding.float32) this.f32View.set(v, at >> 2);
    else this.f32View[(at + this.lanes) >> 2] = quantizeInt8(v, this.i8View, at);
    this.size = ord + 1;
    return ord;
  }

  /** Appends raw records (as {@link records} returns them, e.g. read from a vectors file). */
  appendRecords(bytes: Uint8Array): void {
    if (bytes.length % this.stride !== 0) throw new RangeError(`${bytes.length} bytes is not a whole number of ${this.stride}-byte records`);
    const n = bytes.length / this.stride;
    this.ensureCapacity(this.size + n);
    this.u8View.set(bytes, this.base + this.size * this.stride);
    this.size += n;
  }

  /** The raw bytes of records [first, first + count) (a view: copy before the next append). */
  records(first = 0, count = this.size - first): Uint8Array {
    const start = this.base + first * this.stride;
    return this.u8View.subarray(start, start + count * this.stride);
  }

  record(ord: number): Uint8Array {
    return this.records(ord, 1);
  }

  /** The float values of record `ord` (dequantized for int8). */
  vector(ord: number, out = new Float32Array(this.dim)): Float32Array {
    const at = this.base + ord * this.stride;
    if (this.encoding === VectorEncoding.float32) {
      out.set(this.f32View.subarray(at >> 2, (at >> 2) + this.dim));
      return out;
    }
    return dequantizeInt8(this.i8View, at, this.dim, this.f32View[(at + this.lanes) >> 2], out);
  }

  /** Copies `v` into the query slot (quantized for int8). */
  prepareQuery(v: Float32Array): PreparedQuery {
    if (v.length !== this.dim) throw new RangeError(`query vector has ${v.length} dimensions, the field has ${this.dim}`);
    if (this.encoding === VectorEncoding.float32) {
      this.f32View.fill(0, this.queryPtr >> 2, (this.queryPtr + this.stride) >> 2);
      this.f32View.set(v, this.queryPtr >> 2);
      return { ptr: this.queryPtr, scale: 1 };
    }
    this.i8View.fill(0, this.queryPtr, this.queryPtr + this.lanes);
    return { ptr: this.queryPtr, scale: quantizeInt8(v, this.i8View, this.queryPtr) };
  }

  /** Record `ord` as a query (graph construction scores a node against its neighbours). */
  ordQuery(ord: number): PreparedQuery {
    const ptr = this.base + ord * this.stride;
    if (this.encoding === VectorEncoding.float32) return { ptr, scale: 1 };
    return { ptr, scale: this.f32View[(ptr + this.lanes) >> 2] };
  }

  /** Scores `q` against the first `count` ordinals of {@link ids} into {@link out}. */
  scoreIds(q: PreparedQuery, count: number): void {
    if (this.encoding === VectorEncoding.float32) this.kernels.dotF32Ids(q.ptr, this.base, this.stride, this.lanes, this.idsPtr, count, this.outPtr);
    else this.kernels.dotI8Ids(q.ptr, q.scale, this.base, this.stride, this.lanes, this.idsPtr, count, this.outPtr);
  }

  /** Scores `q` against ordinals [first, first + count) (count <= SCORE_BATCH) into {@link out}. */
  scoreRange(q: PreparedQuery, first: number, count: number): void {
    if (this.encoding === VectorEncoding.float32) this.kernels.dotF32Range(q.ptr, this.base, this.stride, this.lanes, first, count, this.outPtr);
    else this.kernels.dotI8Range(q.ptr, q.scale, this.base, this.stride, this.lanes, first, count, this.outPtr);
  }

  /** Similarity of `q` and record `ord`. */
  score(q: PreparedQuery, ord: number): number {
    const v = this.base + ord * this.stride;
    if (this.encoding === VectorEncoding.float32) return this.kernels.dotF32(q.ptr, v, this.lanes);
    return q.scale * this.f32View[(v + this.lanes) >> 2] * this.kernels.dotI8(q.ptr, v, this.lanes);
  }

  private ensureCapacity(n: number): void {
    if (n <= this.capacity) return;
    let cap = this.capacity * 2;
    while (cap < n) cap *= 2;
    this.kernels.grow(this.base + cap * this.stride);
    this.capacity = cap;
    this.refreshViews();
  }

  private refreshViews(): void {
    const buf = this.kernels.buffer;
    this.f32View = new Float32Array(buf);
    this.i8View = new Int8Array(buf);
    this.u8View = new Uint8Array(buf);
    this.idsView = new Int32Array(buf, this.idsPtr, SCORE_BATCH);
    this.outView = new Float32Array(buf, this.outPtr, SCORE_BATCH);
  }
}

function align16(n: number): number {
  return (n + 15) & ~15;
}
