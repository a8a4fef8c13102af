/**
 * Distance kernels over one linear memory: the WebAssembly SIMD module of distance-kernels.wat where
 * the runtime validates it, and the same functions in plain JavaScript where it does not (old
 * runtimes, `--no-experimental-wasm-simd`-like hosts). Both read the same layout, so the vector
 * store above them never knows which one it has.
 *
 * Every pointer is a byte offset into {@link DistanceKernels.buffer}; layout rules are in the .wat.
 */
import { DISTANCE_KERNELS_WASM_BASE64 } from './distance-kernels.generated.js';

const PAGE = 65536;
/** memory32 addresses at most 4 GiB. */
const MAX_PAGES = 65536;

/** Which implementation runs the kernels. */
export const KernelKind = { wasmSimd: 'wasm-simd', js: 'js' } as const;
export type KernelKind = (typeof KernelKind)[keyof typeof KernelKind];

/** The kernels and the memory they work on. */
export interface DistanceKernels {
  readonly kind: KernelKind;
  /** The current memory; replaced (the old one detached) by {@link DistanceKernels.grow}. */
  readonly buffer: ArrayBuffer;
  /** Makes the memory at least `bytes` long, keeping its contents. */
  grow(bytes: number): void;
  /** Dot product of two float32 vectors of `n` lanes (a multiple of 8). */
  readonly dotF32: (a: number, b: number, n: number) => number;
  /** Dot product of two int8 vectors of `n` lanes (a multiple of 16), exact in int32. */
  readonly dotI8: (a: number, b: number, n: number) => number;
  /** `out[j] = dotF32(q, base + ids[j] * stride)`. */
  readonly dotF32Ids: (q: number, base: number, stride: number, n: number, ids: number, count: number, out: number) => void;
  /** `out[j] = dotF32(q, base + (first + j) * stride)`. */
  readonly dotF32Range: (q: number, base: number, stride: number, n: number, first: number, count: number, out: number) => void;
  /** `out[j] = qscale * scale(v) * dotI8(q, v)`, v = base + ids[j] * stride, scale(v) the float32 at v + n. */
  readonly dotI8Ids: (q: number, qscale: number, base: number, stride: number, n: number, ids: number, count: number, out: number) => void;
  /** The int8 estimate for the records [first, first + count). */
  readonly dotI8Range: (q: number, qscale: number, base: number, stride: number, n: number, first: number, count: number, out: number) => void;
}

/*
 * The slice of the WebAssembly JavaScript API used here. The project compiles against lib ES2023
 * without DOM, and @types/node 20 does not declare the WebAssembly namespace.
 */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
type WasmModule = object;
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule) => { exports: unknown };
}
const wasmApi = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

const wasmBytes = Buffer.from(DISTANCE_KERNELS_WASM_BASE64, 'base64');
let compiled: WasmModule | null | undefined;

/** The compiled module, or null when this runtime has no WebAssembly SIMD. */
function wasmModule(): WasmModule | null {
  if (compiled === undefined) compiled = wasmApi?.validate(wasmBytes) ? new wasmApi.Module(wasmBytes) : null;
  return compiled;
}

/** Whether the WebAssembly SIMD kernels can run here. */
export function wasmSimdAvailable(): boolean {
  return wasmModule() !== null;
}

/**
 * New kernels with a memory of their own of at least `bytes`. WebAssembly SIMD unless unavailable
 * or `options.kind` asks for the JavaScript fallback (tests compare the two).
 */
export function createDistanceKernels(bytes: number, options: { kind?: KernelKind } = {}): DistanceKernels {
  const module = options.kind === KernelKind.js ? null : wasmModule();
  if (options.kind === KernelKind.wasmSimd && module === null) throw new Error('WebAssembly SIMD is not available in this runtime');
  return module === null || wasmApi === undefined ? new JsKernels(bytes) : new WasmKernels(wasmApi, module, bytes);
}

function pagesFor(bytes: number): number {
  const pages = Math.ceil(bytes / PAGE);
  if (pages > MAX_PAGES) throw new RangeError(`vector memory of ${bytes} bytes exceeds the 4 GiB a WebAssembly memory can address`);
  return Math.max(1, pages);
}

interface KernelExports {
  memory: WasmMemory;
  dot_f32: (a: number, b: number, n: number) => number;
  dot_i8: (a: number, b: number, n: number) => number;
  dot_f32_ids: (q: number, base: number, stride: number, n: number, ids: number, count: number, out: number) => void;
  dot_f32_range: (q: number, base: number, stride: number, n: number, first: number, count: number, out: number) => void;
  dot_i8_ids: (q: number, qscale: number, base: number, stride: number, n: number, ids: number, count: number, out: number) => void;
  dot_i8_range: (q: number, qscale: number, base: number, stride: number, n: number, first: number, count: number, out: number) => void;
}

class WasmKernels implements DistanceKernels {
  readonly kind = KernelKind.wasmSimd;
  readonly dotF32: DistanceKernels['dotF32'];
  readonly dotI8: DistanceKernels['dotI8'];
  readonly dotF32Ids: DistanceKernels['dotF32Ids'];
  readonly dotF32Range: DistanceKernels['dotF32Range'];
  readonly dotI8Ids: DistanceKernels['dotI8Ids'];
  readonly dotI8Range: DistanceKernels['dotI8Range'];
  private readonly memory: WasmMemory;

  constructor(api: WasmApi, module: WasmModule, bytes: number) {
    const e = new api.Instance(module).exports as KernelExports;
    this.memory = e.memory;
    this.grow(bytes);
    // The exports themselves, not wrappers: one call per kernel on the hot path.
    this.dotF32 = e.dot_f32;
    this.dotI8 = e.dot_i8;
    this.dotF32Ids = e.dot_f32_ids;
    this.dotF32Range = e.dot_f32_range;
    this.dotI8Ids = e.dot_i8_ids;
    this.dotI8Range = e.dot_i8_range;
  }

  get buffer(): ArrayBuffer {
    return this.memory.buffer;
  }

  grow(bytes: number): void {
    const have = this.memory.buffer.byteLength / PAGE;
    const want = pagesFor(bytes);
    if (want > have) this.memory.grow(want - have);
  }
}

/** The reference semantics of every kernel, and the fallback without WebAssembly SIMD. */
class JsKernels implements DistanceKernels {
  readonly kind = KernelKind.js;
  private mem: ArrayBuffer;
  private f32: Float32Array;
  private i8: Int8Array;
  private i32: Int32Array;

  constructor(bytes: number) {
    this.mem = new ArrayBuffer(pagesFor(bytes) * PAGE);
    this.f32 = new Float32Array(this.mem);
    this.i8 = new Int8Array(this.mem);
    this.i32 = new Int32Array(this.mem);
  }

  get buffer(): ArrayBuffer {
    return this.mem;
  }

  grow(bytes: number): void {
    const size = pagesFor(bytes) * PAGE;
    if (size <= this.mem.byteLength) return;
    const next = new ArrayBuffer(size);
    new Uint8Array(next).set(new Uint8Array(this.mem));
    this.mem = next;
    this.f32 = new Float32Array(next);
    this.i8 = new Int8Array(next);
    this.i32 = new Int32Array(next);
  }

  dotF32(a: number, b: number, n: number): number {
    const f = this.f32;
    let s = 0;
    for (let i = a >> 2, j = b >> 2, end = i + n; i < end; i++, j++) s += f[i] * f[j];
    return Math.fround(s);
  }

  dotI8(a: number, b: number, n: number): number {
    const v = this.i8;
    let s = 0;
    for (let i = a, j = b, end = a + n; i < end; i++, j++) s += v[i] * v[j];
    return s | 0;
  }

  dotF32Ids(q: number, base: number, stride: number, n: number, ids: number, count: number, out: number): void {
    for (let j = 0; j < count; j++) this.f32[(out >> 2) + j] = this.dotF32(q, base + this.i32[(ids >> 2) + j] * stride, n);
  }

  dotF32Range(q: number, base: number, stride: number, n: number, first: number, count: number, out: number): void {
    for (let j = 0; j < count; j++) this.f32[(out >> 2) + j] = this.dotF32(q, base + (first + j) * stride, n);
  }

  dotI8Ids(q: number, qscale: number, base: number, stride: number, n: number, ids: number, count: number, out: number): void {
    for (let j = 0; j < count; j++) this.f32[(out >> 2) + j] = this.i8Estimate(q, qscale, base + this.i32[(ids >> 2) + j] * stride, n);
  }

  dotI8Range(q: number, qscale: number, base: number, stride: number, n: number, first: number, count: number, out: number): void {
    for (let j = 0; j < count; j++) this.f32[(out >> 2) + j] = this.i8Estimate(q, qscale, base + (first + j) * stride, n);
  }

  private i8Estimate(q: number, qscale: number, v: number, n: number): number {
    return Math.fround(qscale) * this.f32[(v + n) >> 2] * this.dotI8(q, v, n);
  }
}
