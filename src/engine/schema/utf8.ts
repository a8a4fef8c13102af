/**
 * UTF-8 well-formedness of bytes a client sent, checked before decoding: decoding with replacement
 * characters would index or answer something other than what was sent.
 */
import { isUtf8 } from 'node:buffer';

/**
 * The byte offset of the first byte of `bytes` that does not belong to a well-formed UTF-8
 * sequence (overlong forms, surrogates and code points past U+10FFFF included), or -1.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1;
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    const length = utf8SequenceLength(bytes, i, bytes.length, b);
    if (length === 0) return i;
    i += length;
  }
  return -1;
}

/**
 * The length of the well-formed UTF-8 sequence whose lead byte `b` (above 0x7f) is at
 * `bytes[j]`, or 0 when it is not one: a stray continuation byte, an overlong form (C0, C1, E0 80-9F, F0 80-8F), a surrogate (ED A0-BF), a
 * code point past U+10FFFF (F4 90-, F5-FF), or a sequence cut short by a byte that does not
 * continue it or by `end`. The ranges of the Unicode standard's table 3-7.
 */
export function utf8SequenceLength(bytes: Uint8Array, j: number, end: number, b: number): number {
  if (b < 0xc2) return 0;
  if (b < 0xe0) return j + 1 < end && (bytes[j + 1] & 0xc0) === 0x80 ? 2 : 0;
  if (b < 0xf0) {
    if (j + 2 >= end) return 0;
    const c1 = bytes[j + 1];
    const low = b === 0xe0 ? 0xa0 : 0x80;
    const high = b === 0xed ? 0x9f : 0xbf;
    return c1 >= low && c1 <= high && (bytes[j + 2] & 0xc0) === 0x80 ? 3 : 0;
  }
  if (b > 0xf4 || j + 3 >= end) return 0;
  const c1 = bytes[j + 1];
  const low = b === 0xf0 ? 0x90 : 0x80;
  const high = b === 0xf4 ? 0x8f : 0xbf;
  return c1 >= low && c1 <= high && (bytes[j + 2] & 0xc0) === 0x80 && (bytes[j + 3] & 0xc0) === 0x80 ? 4 : 0;
}
