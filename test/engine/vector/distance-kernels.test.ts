import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileKernels, KERNELS_TS } from '../../../scripts/wasm/compile-kernels.js';
import { readFile } from 'node:fs/promises';
import { createDistanceKernels, KernelKind, wasmSimdAvailable, type DistanceKernels } from '../../../src/engine/vector/kernels/distance-kernels.js';

/** The plain definition every kernel must agree with. */
function referenceDot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

const f32Vector = (lanes: number): fc.Arbitrary<number[]> => fc.array(fc.float({ min: -4, max: 4, noNaN: true, noDefaultInfinity: true }), { minLength: lanes, maxLength: lanes });
const i8Vector = (lanes: number): fc.Arbitrary<number[]> => fc.array(fc.integer({ min: -127, max: 127 }), { minLength: lanes, maxLength: lanes });

function both(): DistanceKernels[] {
  return [createDistanceKernels(1 << 16, { kind: KernelKind.wasmSimd }), createDistanceKernels(1 << 16, { kind: KernelKind.js })];
}

describe('distance kernels', () => {
  it('are committed as exactly the bytes distance-kernels.wat compiles to', async () => {
    assert.equal(await readFile(KERNELS_TS, 'utf8'), await compileKernels(), 'run `npm run build:wasm` after editing the .wat');
  });

  it('run on WebAssembly SIMD in this runtime', () => {
    assert.equal(wasmSimdAvailable(), true);
    assert.equal(createDistanceKernels(1).kind, KernelKind.wasmSimd);
  });

  it('compute the float32 dot product of two vectors as the reference does', () => {
    for (const k of both()) {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 12 }).chain((blocks) => fc.tuple(f32Vector(blocks * 8), f32Vector(blocks * 8))), ([a, b]) => {
          const f = new Float32Array(k.buffer);
          f.set(a, 0);
          f.set(b, 1024);
          const expected = referenceDot(Float32Array.from(a), Float32Array.from(b));
          const got = k.dotF32(0, 4096, a.length);
          assert.ok(Math.abs(got - expected) <= 1e-4 * (1 + referenceDot(a.map(Math.abs), b.map(Math.abs))), `${k.kind}: ${got} vs ${expected}`);
        }),
        { numRuns: 200 },
      );
    }
  });

  it('compute the int8 dot product exactly, including at the extremes of the code range', () => {
    for (const k of both()) {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 40 }).chain((blocks) => fc.tuple(i8Vector(blocks * 16), i8Vector(blocks * 16))), ([a, b]) => {
          const v = new Int8Array(k.buffer);
          v.set(a, 0);
          v.set(b, 1024);
          assert.equal(k.dotI8(0, 1024, a.length), referenceDot(a, b));
        }),
        { numRuns: 200 },
      );
      const v = new Int8Array(k.buffer);
      v.fill(-127, 0, 640);
      v.fill(-127, 1024, 1024 + 640);
      assert.equal(k.dotI8(0, 1024, 640), 640 * 127 * 127);
    }
  });

  it('score a list of ordinals and a range of records like one call per pair', () => {
    for (const k of both()) {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 4 }),
          fc.integer({ min: 1, max: 30 }),
          fc.integer({ min: 0, max: 2 ** 31 - 1 }),
          (blocks, records, seed) => {
            const lanes = blocks * 16;
            let x = seed;
            const rand = (): number => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) % 255) - 127;
            // Layout: query at 0, ids at 4096, out at 8192, int8 records (codes + scale) from 16384.
            const stride = lanes + 16;
            const base = 16384;
            const bytes = new Int8Array(k.buffer);
            const view = new DataView(k.buffer);
            for (let i = 0; i < lanes; i++) bytes[i] = rand();
            for (let r = 0; r < records; r++) {
              for (let i = 0; i < lanes; i++) bytes[base + r * stride + i] = rand();
              view.setFloat32(base + r * stride + lanes, (r + 1) / 64, true);
            }
            const ids = Array.from({ length: records }, (_, j) => (j * 7) % records);
            ids.forEach((id, j) => { view.setInt32(4096 + 4 * j, id, true); });
            k.dotI8Ids(0, 0.5, base, stride, lanes, 4096, records, 8192);
            for (let j = 0; j < records; j++) {
              const expected = Math.fround(0.5) * Math.fround((ids[j] + 1) / 64) * k.dotI8(0, base + ids[j] * stride, lanes);
              assert.ok(Math.abs(view.getFloat32(8192 + 4 * j, true) - expected) <= 1e-6 * Math.abs(expected) + 1e-6);
            }
            k.dotI8Range(0, 2, base, stride, lanes, 1, records - 1, 8192);
            for (let j = 0; j < records - 1; j++) {
              const expected = 2 * Math.fround((j + 2) / 64) * k.dotI8(0, base + (j + 1) * stride, lanes);
              assert.ok(Math.abs(view.getFloat32(8192 + 4 * j, true) - expected) <= 1e-6 * Math.abs(expected) + 1e-6);
            }
            // float32: the same records read as 4x fewer float lanes.
            const fl = lanes / 2;
            const fs = fl * 4;
            const f = new Float32Array(k.buffer);
            for (let r = 0; r < records; r++) for (let i = 0; i < fl; i++) f[(base + r * fs) / 4 + i] = rand() / 32;
            for (let i = 0; i < fl; i++) f[i] = rand() / 32;
            k.dotF32Ids(0, base, fs, fl, 4096, records, 8192);
            for (let j = 0; j < records; j++) assert.equal(view.getFloat32(8192 + 4 * j, true), k.dotF32(0, base + ids[j] * fs, fl));
            k.dotF32Range(0, base, fs, fl, 0, records, 8192);
            for (let j = 0; j < records; j++) assert.equal(view.getFloat32(8192 + 4 * j, true), k.dotF32(0, base + j * fs, fl));
          },
        ),
        { numRuns: 100 },
      );
    }
  });

  it('keep their contents when the memory grows', () => {
    for (const k of both()) {
      new Int8Array(k.buffer).fill(3, 0, 32);
      k.grow(1 << 22);
      assert.ok(k.buffer.byteLength >= 1 << 22);
      assert.equal(k.dotI8(0, 16, 16), 16 * 9);
    }
  });
});
