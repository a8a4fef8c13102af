/**
 * Reads an index file front to back through {@link Directory.readRange} in bounded chunks, with a
 * running CRC-32 that the footer is checked against at the end. Vector files are large (hundreds of
 * MB at a million vectors) and their contents are copied into kernel memory or typed arrays
 * anyway, so reading them whole first would double a search process's peak memory; this way the
 * extra memory is one chunk, and every byte is still verified.
 */
import { crc32 } from 'node:zlib';
import type { Directory, RandomAccessFile } from '../../directory.js';
import { ErrorCode, YarrowError } from '../../errors.js';
import { checkHeader, checkFooterMagic, FOOTER_LENGTH, HEADER_LENGTH, verifyChecksum } from '../../codec/file-format.js';

/** Bytes fetched per readRange. */
export const READ_CHUNK = 1 << 20;

/** A front-to-back reader of one checked file. */
export class SequentialFileReader {
  private pos = 0;
  private crc = 0;
  private footerAt = -1;

  /** Reused by every read through `file`, so that verifying a large file allocates one chunk. */
  private scratch: Uint8Array | null = null;

  private constructor(
    private readonly dir: Directory,
    readonly fileName: string,
    private readonly file: RandomAccessFile | null,
  ) {}

  /**
   * Opens `fileName` and checks its magic and version. With `file` (the same file open for
   * positional reads) the body is read through it into one reused buffer: a chunk handed to a
   * sink is then valid only until the next read.
   */
  static async open(dir: Directory, fileName: string, magic: string, version: number, file: RandomAccessFile | null = null): Promise<SequentialFileReader> {
    const r = new SequentialFileReader(dir, fileName, file);
    const header = await r.read(HEADER_LENGTH);
    try {
      checkHeader(header, fileName, magic, version);
    } catch (error) {
      // A damaged header must read as corruption, not as another format: only a file whose
      // checksum holds can claim a version (the same order as openChecked; this path is rare).
      verifyChecksum(await dir.readFile(fileName), fileName);
      throw error;
    }
    return r;
  }

  /**
   * Declares the file's total size, as its header fields imply it, and checks that the footer is
   * there: a damaged count is caught before anything is allocated for it.
   */
  async expectSize(total: number): Promise<void> {
    if (!Number.isSafeInteger(total) || total < this.pos + FOOTER_LENGTH) throw this.corrupt(`header implies an impossible size ${total}`);
    checkFooterMagic(await this.dir.readRange(this.fileName, total - FOOTER_LENGTH, FOOTER_LENGTH), this.fileName);
    this.footerAt = total - FOOTER_LENGTH;
  }

  /** The next `length` bytes (a small section: header fields). */
  async read(length: number): Promise<Uint8Array> {
    const bytes = this.file !== null && length <= READ_CHUNK ? this.readScratch(this.file, length) : await this.dir.readRange(this.fileName, this.pos, length);
    if (bytes.length !== length) throw this.corrupt(`short read at ${this.pos}`);
    this.crc = crc32(bytes, this.crc);
    this.pos += length;
    return bytes;
  }

  /**
   * Streams the next `length` bytes to `sink` in chunks of at most {@link READ_CHUNK} bytes,
   * each a multiple of `unit` (so a chunk never splits a record).
   */
  async stream(length: number, unit: number, sink: (chunk: Uint8Array) => void): Promise<void> {
    const step = Math.max(unit, Math.floor(READ_CHUNK / unit) * unit);
    for (let done = 0; done < length; ) {
      const n = Math.min(step, length - done);
      sink(await this.read(n));
      done += n;
    }
  }

  /** Reads the next `length` bytes into `target` (a typed array of exactly that byte length). */
  async readInto(target: ArrayBufferView, length = target.byteLength): Promise<void> {
    const bytes = new Uint8Array(target.buffer, target.byteOffset, length);
    let at = 0;
    await this.stream(length, 1, (chunk) => {
      bytes.set(chunk, at);
      at += chunk.length;
    });
  }

  /** Checks that the footer follows and that its CRC matches every byte read. */
  async finish(): Promise<void> {
    if (this.footerAt >= 0 && this.pos !== this.footerAt) throw this.corrupt(`body ends at ${this.pos}, the footer is at ${this.footerAt}`);
    const expected = this.crc;
    const footer = await this.dir.readRange(this.fileName, this.pos, FOOTER_LENGTH);
    checkFooterMagic(footer, this.fileName);
    const withMagic = crc32(footer.subarray(0, 4), expected) >>> 0;
    const stored = new DataView(footer.buffer, footer.byteOffset, FOOTER_LENGTH).getUint32(4, true);
    if (stored !== withMagic) {
      throw new YarrowError(ErrorCode.corruptIndex, `${this.fileName}: checksum mismatch (stored ${hex(stored)}, computed ${hex(withMagic)})`, {
        source: this.fileName,
        expected: hex(stored),
        actual: hex(withMagic),
      });
    }
  }

  private readScratch(file: RandomAccessFile, length: number): Uint8Array {
    this.scratch ??= new Uint8Array(READ_CHUNK);
    const bytes = this.scratch.subarray(0, length);
    if (file.read(bytes, this.pos) !== length) throw this.corrupt(`short read at ${this.pos}`);
    return bytes;
  }

  /** A corrupt_index error naming this file. */
  corrupt(why: string): YarrowError {
    return new YarrowError(ErrorCode.corruptIndex, `${this.fileName}: ${why}`, { source: this.fileName });
  }
}

function hex(v: number): string {
  return `0x${v.toString(16).padStart(8, '0')}`;
}
