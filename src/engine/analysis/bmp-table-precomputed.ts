/**
 * The BMP class table of char-class.ts, precomputed: building it runs five Unicode property regexes
 * over all 65,536 code units, 13-30 ms that every process spends before its first search answers
 * (issue 17), while decoding the ~2,200 runs kept in bmp-table-runs.ts takes well under 1 ms.
 *
 * Property regexes answer by the Unicode version of the running JavaScript engine, so the runs are
 * used only under the Unicode version they were built with (`process.versions.unicode`); under any
 * other the table is built as before. `node --import tsx scripts/bmp-table-runs.ts` regenerates them;
 * test/engine/analysis/char-class.test.ts fails when they no longer match a built table.
 */
import { BMP_TABLE_RUNS, BMP_TABLE_UNICODE } from './bmp-table-runs.js';

/** The table decoded from {@link BMP_TABLE_RUNS}, or undefined when this engine's Unicode version is another. */
export function precomputedBmpTable(): Uint8Array | undefined {
  if (process.versions.unicode !== BMP_TABLE_UNICODE) return undefined;
  return decodeRuns(BMP_TABLE_RUNS);
}

/** `table` as runs: [length, byte, length, byte, ...], the lengths summing to the table's length. */
export function encodeRuns(table: Uint8Array): number[] {
  const runs: number[] = [];
  let start = 0;
  for (let i = 1; i <= table.length; i++) {
    if (i === table.length || table[i] !== table[start]) {
      runs.push(i - start, table[start]);
      start = i;
    }
  }
  return runs;
}

/** The 65,536-byte table `runs` ({@link encodeRuns}) describe; throws when they do not cover it exactly. */
export function decodeRuns(runs: readonly number[]): Uint8Array {
  const table = new Uint8Array(0x10000);
  let at = 0;
  for (let r = 0; r < runs.length; r += 2) {
    table.fill(runs[r + 1], at, at + runs[r]);
    at += runs[r];
  }
  if (at !== table.length) throw new Error(`BMP table runs cover ${String(at)} code units, not ${String(table.length)}`);
  return table;
}
