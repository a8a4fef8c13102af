/**
 * Arrays of uint32 of any length as a run of bit-packed blocks, each with its own width, so one
 * outlier only widens its own block of 128.
 *
 * Byte layout: for each block of up to BLOCK_SIZE values, 1 byte bit width, then the packed
 * block (see bitpacking.ts). The length is not written; the caller knows it.
 */
import type { ByteReader } from '../bytes/byte-reader.js';
import type { ByteWriter } from '../bytes/byte-writer.js';
import { BLOCK_SIZE, bitsRequired, packBlock, unpackBlock } from './bitpacking.js';

/** Appends values[0..count) as bit-packed blocks. */
export function writePackedArray(w: ByteWriter, values: Uint32Array, count: number): void {
  for (let start = 0; start < count; start += BLOCK_SIZE) {
    const n = Math.min(BLOCK_SIZE, count - start);
    const block = values.subarray(start, start + n);
    const bits = bitsRequired(block, n);
    w.writeByte(bits);
    packBlock(w, block, n, bits);
  }
}

/** Reads `count` values written by {@link writePackedArray} into out[0..count). */
export function readPackedArray(r: ByteReader, count: number, out: Uint32Array): void {
  const bytes = r.bytes;
  let p = r.pos;
  for (let start = 0; start < count; start += BLOCK_SIZE) {
    const n = Math.min(BLOCK_SIZE, count - start);
    r.pos = p;
    const bits = r.readByte();
    p = unpackBlock(bytes, p + 1, n, bits, out.subarray(start, start + n));
  }
  r.pos = p;
}
