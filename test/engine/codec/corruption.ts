import assert from 'node:assert/strict';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';

/** Asserts that `fn` throws a YarrowError with `code` whose message names `fileName`. */
export function assertYarrowError(fn: () => unknown, code: ErrorCode, fileName: string): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof YarrowError, `expected a YarrowError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.ok(error.message.includes(fileName), `message should name ${fileName}: ${error.message}`);
    return true;
  });
}

/**
 * Flips one bit in each of up to `maxPositions` byte positions spread over the whole file (all
 * of them for small files) and asserts that opening the damaged copy fails with corrupt_index.
 */
export function assertEveryFlipIsCorrupt(bytes: Uint8Array, open: (damaged: Uint8Array) => unknown, fileName: string, maxPositions = 512): void {
  const step = Math.max(1, Math.floor(bytes.length / maxPositions));
  const positions = new Set<number>();
  for (let p = 0; p < bytes.length; p += step) positions.add(p);
  for (let p = Math.max(0, bytes.length - 16); p < bytes.length; p++) positions.add(p);
  for (const p of positions) {
    for (const mask of [0x01, 0x80]) {
      const damaged = bytes.slice();
      damaged[p] ^= mask;
      assertYarrowError(() => open(damaged), ErrorCode.corruptIndex, fileName);
    }
  }
}

/** Asserts that every proper prefix of a sample of lengths fails with corrupt_index. */
export function assertTruncationIsCorrupt(bytes: Uint8Array, open: (damaged: Uint8Array) => unknown, fileName: string): void {
  for (const n of [0, 1, 7, 8, 15, bytes.length >>> 1, bytes.length - 4, bytes.length - 1]) {
    if (n < 0 || n >= bytes.length) continue;
    assertYarrowError(() => open(bytes.slice(0, n)), ErrorCode.corruptIndex, fileName);
  }
}
