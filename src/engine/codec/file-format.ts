/**
 * The envelope every index file shares (Lucene's CodecUtil header/footer, tantivy's footer):
 *
 *   header   4 bytes  magic, ASCII, names the file kind
 *            uint32   format version of that kind
 *   body     ...      the codec's own layout
 *   footer   4 bytes  FOOTER_MAGIC
 *            uint32   CRC-32 of every byte before it (header, body and footer magic)
 *
 * The checksum is verified before anything else is read, so a flipped byte anywhere, even in the
 * header, is reported as corruption rather than as a wrong version.
 */
import { crc32 as zlibCrc32 } from 'node:zlib';
import { ByteReader } from './bytes/byte-reader.js';
import type { ByteWriter } from './bytes/byte-writer.js';
import { ErrorCode, YarrowError } from '../errors.js';

/** Bytes of the header: magic + version. */
export const HEADER_LENGTH = 8;
/** Bytes of the footer: footer magic + CRC-32. */
export const FOOTER_LENGTH = 8;
/** Marks the footer; a truncated file or a file that is not Yarrow's fails on it. */
export const FOOTER_MAGIC = 'Yend';

const FOOTER_MAGIC_WORD = magicWord(FOOTER_MAGIC);

/** CRC-32 (IEEE, as zlib and gzip compute it) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  return zlibCrc32(bytes) >>> 0;
}

/** Writes magic (4 ASCII chars) + format version (uint32). */
export function writeHeader(w: ByteWriter, magic: string, version: number): void {
  w.writeUint32(magicWord(magic));
  w.writeUint32(version);
}

/** Appends the footer: 4-byte footer magic + CRC-32 of every preceding byte. */
export function writeFooter(w: ByteWriter): void {
  w.writeUint32(FOOTER_MAGIC_WORD);
  w.writeUint32(crc32(w.view()));
}

/**
 * Checks the footer and checksum (else `corrupt_index`), then the magic (else `corrupt_index`)
 * and the version (exact match, else `incompatible_format`), each error naming the file.
 * Returns a reader positioned after the header, and the end offset of the body (before the footer).
 */
export function openChecked(bytes: Uint8Array, fileName: string, magic: string, version: number): { reader: ByteReader; bodyEnd: number } {
  verifyChecksum(bytes, fileName);
  const reader = new ByteReader(bytes);
  checkHeader(bytes, fileName, magic, version);
  reader.pos = HEADER_LENGTH;
  return { reader, bodyEnd: bytes.length - FOOTER_LENGTH };
}

/**
 * Checks the magic (else `corrupt_index`) and the version (exact match, else
 * `incompatible_format`) of a file's first {@link HEADER_LENGTH} bytes.
 */
export function checkHeader(header: Uint8Array, fileName: string, magic: string, version: number): void {
  const reader = new ByteReader(header);
  const found = reader.readUint32();
  if (found !== magicWord(magic)) {
    throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: not a ${magic} file (magic ${JSON.stringify(wordMagic(found))})`, {
      source: fileName,
      expected: magic,
      actual: wordMagic(found),
    });
  }
  const foundVersion = reader.readUint32();
  if (foundVersion !== version) {
    throw new YarrowError(
      ErrorCode.incompatibleFormat,
      `${fileName}: format version ${foundVersion} of ${magic} files is not supported (this build reads version ${version})`,
      { source: fileName, expected: String(version), actual: String(foundVersion) },
    );
  }
}

/** Checks that `tail`, the last bytes of a file, ends with the footer magic (a truncation check without the checksum). */
export function checkFooterMagic(tail: Uint8Array, fileName: string): void {
  if (tail.length < FOOTER_LENGTH || new ByteReader(tail, tail.length - FOOTER_LENGTH).readUint32() !== FOOTER_MAGIC_WORD) {
    throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: footer missing (truncated or not an index file)`, { source: fileName });
  }
}

/**
 * The CRC-32 a file's footer records (of every byte before it): the file's content checksum, which
 * the manifest stores per file. (The CRC of the whole file, footer included, is the same constant
 * for every intact file, so it could not tell two files apart.)
 */
export function footerChecksum(bytes: Uint8Array, fileName: string): number {
  if (bytes.length < FOOTER_LENGTH) {
    throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: ${bytes.length} bytes is too short for an index file (truncated?)`, { source: fileName });
  }
  return new ByteReader(bytes, bytes.length - 4).readUint32();
}

/** Verifies only the footer magic and checksum; for a checksum verification pass over a whole index. */
export function verifyChecksum(bytes: Uint8Array, fileName: string): void {
  if (bytes.length < HEADER_LENGTH + FOOTER_LENGTH) {
    throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: ${bytes.length} bytes is too short for an index file (truncated?)`, {
      source: fileName,
    });
  }
  const r = new ByteReader(bytes, bytes.length - FOOTER_LENGTH);
  const footerMagic = r.readUint32();
  if (footerMagic !== FOOTER_MAGIC_WORD) {
    throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: footer missing (truncated or not an index file)`, { source: fileName });
  }
  const stored = r.readUint32();
  const actual = crc32(bytes.subarray(0, bytes.length - 4));
  if (stored !== actual) {
    throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: checksum mismatch (stored ${hex(stored)}, computed ${hex(actual)})`, {
      source: fileName,
      expected: hex(stored),
      actual: hex(actual),
    });
  }
}

function magicWord(magic: string): number {
  if (magic.length !== 4 || !/^[\x20-\x7e]{4}$/.test(magic)) throw new RangeError(`magic must be 4 printable ASCII chars: ${JSON.stringify(magic)}`);
  return (magic.charCodeAt(0) | (magic.charCodeAt(1) << 8) | (magic.charCodeAt(2) << 16) | (magic.charCodeAt(3) << 24)) >>> 0;
}

function wordMagic(word: number): string {
  let s = '';
  for (let k = 0; k < 4; k++) s += String.fromCharCode((word >>> (8 * k)) & 0xff);
  return s;
}

function hex(v: number): string {
  return `0x${v.toString(16).padStart(8, '0')}`;
}
