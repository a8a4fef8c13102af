import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EXACT_NORM_LENGTHS, lengthToNorm, normToLength } from '../../../../src/engine/codec/norms/small-float.js';

const MAX = 2 ** 31 - 1;

describe('lengthToNorm', () => {
  it('encodes lengths below 24 exactly', () => {
    for (let n = 0; n < EXACT_NORM_LENGTHS; n++) {
      assert.equal(lengthToNorm(n), n);
      assert.equal(normToLength(lengthToNorm(n)), n);
    }
  });

  it('is monotonic over lengths', () => {
    let previous = 0;
    for (let n = 0; n < 70_000; n++) {
      const norm = lengthToNorm(n);
      assert.ok(norm >= previous, `length ${n}`);
      previous = norm;
    }
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX }), fc.integer({ min: 0, max: MAX }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        assert.ok(lengthToNorm(lo) <= lengthToNorm(hi));
      }),
    );
  });

  it('maps every length to a byte, 255 for 2^31-1 and beyond', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX }), (n) => {
        const norm = lengthToNorm(n);
        assert.ok(Number.isInteger(norm) && norm >= 0 && norm <= 255);
      }),
    );
    assert.equal(lengthToNorm(MAX), 255);
    assert.equal(lengthToNorm(2 ** 40), 255);
  });

  it('keeps 4 significant bits: the decoded length is within 1/8 below the true one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX }), (n) => {
        const decoded = normToLength(lengthToNorm(n));
        assert.ok(decoded <= n);
        assert.ok(n - decoded <= Math.max(0, (n - EXACT_NORM_LENGTHS) / 8), `${n} -> ${decoded}`);
      }),
    );
  });
});

describe('normToLength', () => {
  it('is strictly increasing and inverts lengthToNorm for every byte', () => {
    for (let norm = 0; norm < 256; norm++) {
      const length = normToLength(norm);
      assert.equal(lengthToNorm(length), norm, `norm ${norm}`);
      if (norm > 0) assert.ok(length > normToLength(norm - 1));
    }
    assert.ok(normToLength(255) <= MAX);
  });
});
