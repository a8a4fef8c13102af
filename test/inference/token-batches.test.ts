import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { poolInto } from '../../src/inference/pooling.js';
import { buildInputs, planSubBatches } from '../../src/inference/token-batches.js';

describe('planSubBatches', () => {
  it('groups texts by length, within max rows and max padded tokens, covering every text once', () => {
    const lengths = [5, 300, 7, 512, 6, 290, 8, 511];
    const encoded = lengths.map((n) => Array.from({ length: n }, () => 1));
    const batches = planSubBatches(encoded, 3, 1024);
    assert.deepEqual(batches.map((b) => b.rows.map((r) => lengths[r])), [[5, 6, 7], [8, 290, 300], [511, 512]]);
    for (const b of batches) {
      assert.ok(b.rows.length <= 3);
      assert.ok(b.rows.length * b.seq <= 1024 || b.rows.length === 1);
      assert.equal(b.seq, Math.max(...b.rows.map((r) => lengths[r])));
    }
    assert.deepEqual(batches.flatMap((b) => b.rows).sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7]);
    // Two rows padded to 512 tokens do not fit 1000.
    assert.deepEqual(planSubBatches(encoded, 3, 1000).map((b) => b.rows.map((r) => lengths[r])), [[5, 6, 7], [8, 290, 300], [511], [512]]);
  });

  it('builds padded int64 inputs with a mask over the real tokens', () => {
    const { ids, mask, types, lengths } = buildInputs([[101, 7, 102], [101, 102]], { rows: [1, 0], seq: 3 });
    assert.deepEqual([...ids], [101n, 102n, 0n, 101n, 7n, 102n]);
    assert.deepEqual([...mask], [1n, 1n, 0n, 1n, 1n, 1n]);
    assert.deepEqual([...types], [0n, 0n, 0n, 0n, 0n, 0n]);
    assert.deepEqual([...lengths], [2, 3]);
  });
});

describe('poolInto', () => {
  // Two rows, three token slots, two dimensions; row 0 has 2 real tokens, row 1 has 3.
  const hidden = new Float32Array([1, 2, 3, 4, 100, 100, 5, 0, 0, 5, 1, 1]);

  it('averages the real tokens only (mean) or takes the first (cls)', () => {
    const mean = new Float32Array(4);
    poolInto(mean, hidden, 2, 3, 2, [2, 3], 'mean', false);
    assert.deepEqual([...mean], [2, 3, 2, 2]);
    const cls = new Float32Array(4);
    poolInto(cls, hidden, 2, 3, 2, [2, 3], 'cls', false);
    assert.deepEqual([...cls], [1, 2, 5, 0]);
  });

  it('normalises to unit length', () => {
    const out = new Float32Array(4);
    poolInto(out, hidden, 2, 3, 2, [2, 3], 'cls', true);
    assert.ok(Math.abs(Math.hypot(out[0], out[1]) - 1) < 1e-6);
    assert.deepEqual([...out.slice(2)], [1, 0]);
  });
});
