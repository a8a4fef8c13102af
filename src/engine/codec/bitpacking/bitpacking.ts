/**
 * Frame-of-reference bit packing of blocks of up to {@link BLOCK_SIZE} uint32 values.
 *
 * Byte layout of a block of `count` values at `bits` bits each: ceil(count * bits / 8) bytes
 * holding one little-endian bit stream; value i occupies stream bits [i*bits, (i+1)*bits), low
 * bit first. The bit width itself is not written: callers store it (usually one byte before the
 * block) because they often share one width across several blocks.
 */
import type { ByteWriter } from '../bytes/byte-writer.js';
import { ErrorCode, YarrowError } from '../../errors.js';

/** Values per block: the postings block size, and the unit of every bit-packed column. */
export const BLOCK_SIZE = 128;

// One block is at most 128 * 32 bits = 128 words; one spare word lets the decoder read ahead.
const words = new Uint32Array(BLOCK_SIZE + 1);
const wordBytes = new Uint8Array(words.buffer);
/** Whether this machine stores a uint32's low byte first (then {@link words} is already the byte stream). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** Smallest bit width that holds every value in values[0..count) (0 when all are 0). */
export function bitsRequired(values: Uint32Array, count: number): number {
  let or = 0;
  for (let i = 0; i < count; i++) or |= values[i];
  return 32 - Math.clz32(or);
}

/** Number of bytes a block of `count` values at `bits` bits occupies. */
export function packedBytes(count: number, bits: number): number {
  return (count * bits + 7) >>> 3;
}

/** Appends `count` values packed with `bits` bits each (ceil(count*bits/8) bytes). */
export function packBlock(w: ByteWriter, values: Uint32Array, count: number, bits: number): void {
  checkShape(count, bits);
  if (bits === 0) return;
  const nBytes = packedBytes(count, bits);
  if (bits <= MAX_NARROW_BITS) {
    const buf = w.reserve(nBytes);
    w.advance(packNarrowInto(buf, w.length, values, count, bits));
    return;
  }
  packWide(w, values, count, bits, nBytes);
}

/** The widest values {@link packNarrowInto} packs. */
export const MAX_NARROW_BITS = 24;

/**
 * {@link packBlock} of values at most {@link MAX_NARROW_BITS} bits wide (`bits` 0 to 24),
 * straight into `buf` at `p` (room for {@link packedBytes}); returns the position after them.
 * A byte at a time: the pending bits (fewer than 8) and a value of at most 24 bits stay below
 * 2^31. Postings' doc deltas and frequencies are this narrow.
 */
export function packNarrowInto(buf: Uint8Array, p: number, values: Uint32Array, count: number, bits: number): number {
  const limit = (1 << bits) - 1;
  let pending = 0;
  let held = 0;
  for (let i = 0; i < count; i++) {
    const v = values[i];
    if (v > limit) throw new RangeError(`value ${v} at index ${i} does not fit in ${bits} bits`);
    pending |= v << held;
    held += bits;
    while (held >= 8) {
      buf[p++] = pending;
      pending >>>= 8;
      held -= 8;
    }
  }
  if (held > 0) buf[p++] = pending;
  return p;
}

/** {@link packBlock} for widths above 24 bits: through 32-bit words. */
function packWide(w: ByteWriter, values: Uint32Array, count: number, bits: number, nBytes: number): void {
  const limit = 2 ** bits - 1;
  const nWords = (count * bits + 31) >>> 5;
  let word = 0;
  let wi = 0;
  let shift = 0;
  for (let i = 0; i < count; i++) {
    const v = values[i];
    if (v > limit) throw new RangeError(`value ${v} at index ${i} does not fit in ${bits} bits`);
    word |= v << shift;
    shift += bits;
    if (shift >= 32) {
      words[wi++] = word;
      shift -= 32;
      // The bits of v that did not fit in the finished word start the next one.
      word = shift === 0 ? 0 : v >>> (bits - shift);
    }
  }
  if (wi < nWords) words[wi] = word;
  if (LITTLE_ENDIAN) {
    // The words' bytes in memory are the stream's bytes.
    w.writeBytesOf(wordBytes, nBytes);
    return;
  }
  w.ensure(nBytes);
  const full = nBytes >>> 2;
  for (let k = 0; k < full; k++) {
    const x = words[k];
    w.writeByte(x);
    w.writeByte(x >>> 8);
    w.writeByte(x >>> 16);
    w.writeByte(x >>> 24);
  }
  const last = words[full];
  for (let k = 0; k < (nBytes & 3); k++) w.writeByte(last >>> (8 * k));
}

/**
 * Decodes `count` values of `bits` bits starting at `offset` in `bytes` into `out`; returns the
 * offset after the block. This is the query hot path: the block's bytes are first gathered into
 * 32-bit words (4 loads per word instead of up to 5 per value), then every value is one or two
 * shifts of a word; nothing is allocated.
 */
export function unpackBlock(bytes: Uint8Array, offset: number, count: number, bits: number, out: Uint32Array): number {
  const nBytes = (count * bits + 7) >>> 3;
  const end = offset + nBytes;
  if (end > bytes.length || count > BLOCK_SIZE || bits > 32) {
    throw new YarrowError(ErrorCode.corruptIndex, `bit-packed block of ${count} x ${bits} bits at offset ${offset} runs past the data`, { offset });
  }
  if (bits === 0) {
    out.fill(0, 0, count);
    return end;
  }
  const full = nBytes >>> 2;
  let p = offset;
  for (let k = 0; k < full; k++, p += 4) {
    words[k] = bytes[p] | (bytes[p + 1] << 8) | (bytes[p + 2] << 16) | (bytes[p + 3] << 24);
  }
  let tail = 0;
  for (let s = 0; p < end; p++, s += 8) tail |= bytes[p] << s;
  words[full] = tail;

  if (bits === 32) {
    out.set(words.subarray(0, count));
    return end;
  }
  const mask = 0xffff_ffff >>> (32 - bits);
  if ((32 % bits) === 0) {
    // 1, 2, 4, 8, 16 bits: values never straddle words.
    const perWord = 32 / bits;
    let i = 0;
    for (let k = 0; i < count; k++) {
      let x = words[k];
      const stop = Math.min(count, i + perWord);
      for (; i < stop; i++) {
        out[i] = x & mask;
        x >>>= bits;
      }
    }
    return end;
  }
  let wi = 0;
  let cur = words[0];
  let shift = 0;
  for (let i = 0; i < count; i++) {
    let v = cur >>> shift;
    shift += bits;
    if (shift >= 32) {
      shift -= 32;
      cur = words[++wi]!;
      if (shift !== 0) v |= cur << (bits - shift);
    }
    out[i] = v & mask;
  }
  return end;
}

function checkShape(count: number, bits: number): void {
  if (count < 0 || count > BLOCK_SIZE || bits < 0 || bits > 32) {
    throw new RangeError(`cannot pack ${count} values at ${bits} bits (at most ${BLOCK_SIZE} values, 0..32 bits)`);
  }
}
