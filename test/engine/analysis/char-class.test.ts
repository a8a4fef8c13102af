/**
 * The tokenizers' character class table (src/engine/analysis/char-class.ts) is decoded from
 * precomputed runs when they were built under this engine's Unicode version, and must then be
 * exactly the table the Unicode property regexes build (issue 17: start-up without the build).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BMP_TABLE_RUNS, BMP_TABLE_UNICODE } from '../../../src/engine/analysis/bmp-table-runs.js';
import { decodeRuns, encodeRuns, precomputedBmpTable } from '../../../src/engine/analysis/bmp-table-precomputed.js';
import { bmpCharTable, buildBmpTable } from '../../../src/engine/analysis/char-class.js';

describe('the BMP character class table', () => {
  it('is the built table, whether decoded from the precomputed runs or built', () => {
    const built = buildBmpTable();
    assert.deepEqual(bmpCharTable(), built);
    const precomputed = precomputedBmpTable();
    if (process.versions.unicode === BMP_TABLE_UNICODE) {
      // A mismatch here means the runs are stale: `node --import tsx scripts/bmp-table-runs.ts`.
      assert.ok(precomputed !== undefined);
      assert.deepEqual(precomputed, built, 'bmp-table-runs.ts no longer matches char-class.ts: regenerate it');
    } else {
      assert.equal(precomputed, undefined, `runs built under Unicode ${BMP_TABLE_UNICODE} used under ${String(process.versions.unicode)}`);
    }
  });

  it('runs encode and decode a table exactly, and runs that do not cover the BMP are refused', () => {
    const table = new Uint8Array(0x10000);
    table.fill(1, 10, 20);
    table[0xffff] = 9;
    const runs = encodeRuns(table);
    assert.deepEqual(runs, [10, 0, 10, 1, 0xffff - 20, 0, 1, 9]);
    assert.deepEqual(decodeRuns(runs), table);
    assert.throws(() => decodeRuns([10, 0]), /cover 10 code units, not 65536/);
    assert.equal(BMP_TABLE_RUNS.length % 2, 0);
  });
});
