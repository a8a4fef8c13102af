import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { dequantizeInt8, normalizeInPlace, quantizeInt8 } from '../../../src/engine/vector/quantization.js';

const vector = fc.array(fc.float({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 300 });

describe('quantizeInt8', () => {
  it('keeps codes in [-127, 127] and every value within half a step of its original', () => {
    fc.assert(
      fc.property(vector, (values) => {
        const v = Float32Array.from(values);
        const codes = new Int8Array(v.length + 3);
        const scale = quantizeInt8(v, codes, 3);
        const back = dequantizeInt8(codes, 3, v.length, scale);
        for (let i = 0; i < v.length; i++) {
          assert.ok(codes[3 + i] >= -127 && codes[3 + i] <= 127);
          assert.ok(Math.abs(back[i] - v[i]) <= scale * 0.5 + 1e-6 * Math.abs(v[i]) + 1e-36, `${back[i]} vs ${v[i]} (scale ${scale})`);
        }
      }),
    );
  });

  it('gives the same codes again for its own dequantized values (a merge re-encoding loses nothing)', () => {
    fc.assert(
      fc.property(vector, (values) => {
        const v = Float32Array.from(values);
        const codes = new Int8Array(v.length);
        const scale = quantizeInt8(v, codes, 0);
        const again = new Int8Array(v.length);
        quantizeInt8(dequantizeInt8(codes, 0, v.length, scale), again, 0);
        assert.deepEqual(again, codes);
      }),
    );
  });

  it('encodes a zero vector as zeros with scale 0', () => {
    const codes = new Int8Array(4).fill(9);
    assert.equal(quantizeInt8(new Float32Array(4), codes, 0), 0);
    assert.deepEqual(codes, new Int8Array(4));
  });
});

describe('normalizeInPlace', () => {
  it('scales to unit length and leaves a zero vector zero', () => {
    const v = normalizeInPlace(Float32Array.of(3, 4));
    assert.ok(Math.abs(v[0] - 0.6) < 1e-6 && Math.abs(v[1] - 0.8) < 1e-6);
    assert.deepEqual(normalizeInPlace(new Float32Array(3)), new Float32Array(3));
  });
});
