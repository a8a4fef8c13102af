/**
 * A file read by range through one window, for a reader that needs synchronous positional reads
 * ({@link RandomAccessFile}) on a directory that reads only asynchronously (a merge thread's, whose
 * reads are messages to the writer's thread). The reader's user loads what the next reads need
 * with {@link WindowedFile.load} first (a merge copies stored documents in order, so a window
 * serves many blocks); the file's head and tail (header, block index, footer) are kept from open.
 */
import type { RangeReader } from '../codec/postings/postings-file.js';
import type { RandomAccessFile } from '../directory.js';

/** Bytes a window reads at least. */
const WINDOW_BYTES = 1 << 20;

interface Span {
  readonly start: number;
  readonly bytes: Uint8Array;
}

/** A file read through a window loaded ahead of the synchronous reads. */
export class WindowedFile implements RandomAccessFile {
  private window: Span = { start: 0, bytes: new Uint8Array(0) };

  private constructor(
    readonly name: string,
    readonly size: number,
    private readonly readRange: RangeReader,
    /** The head and the tail of the file, kept. */
    private readonly kept: readonly Span[],
    private readonly windowBytes: number,
  ) {}

  /**
   * Opens a file of `size` bytes, keeping its first `head` bytes and its last `tail` bytes in
   * memory (what a reader reads at open and keeps decoded anyway).
   */
  static async open(name: string, size: number, readRange: RangeReader, head: number, tail: number, windowBytes = WINDOW_BYTES): Promise<WindowedFile> {
    const headBytes = await readRange(0, Math.min(head, size));
    const tailStart = Math.max(0, size - tail);
    const tailBytes = await readRange(tailStart, size - tailStart);
    return new WindowedFile(name, size, readRange, [{ start: 0, bytes: headBytes }, { start: tailStart, bytes: tailBytes }], windowBytes);
  }

  /** Whether `[position, position + length)` can be read now. */
  holds(position: number, length: number): boolean {
    return this.spanOf(position, length) !== undefined;
  }

  /** Reads the window that holds `[position, position + length)` (at least the window's size from `position`). */
  async load(position: number, length: number): Promise<void> {
    if (this.holds(position, length)) return;
    const end = Math.min(this.size, position + Math.max(length, this.windowBytes));
    this.window = { start: position, bytes: await this.readRange(position, end - position) };
  }

  /** Extends the tail kept in memory down to `position` (a block index found at open). */
  async keepFrom(position: number): Promise<void> {
    const tail = this.kept[1];
    if (position >= tail.start) return;
    const bytes = new Uint8Array(this.size - position);
    bytes.set(await this.readRange(position, tail.start - position));
    bytes.set(tail.bytes, tail.start - position);
    (this.kept as Span[])[1] = { start: position, bytes };
  }

  read(target: Uint8Array, position: number): number {
    const length = Math.min(target.length, Math.max(0, this.size - position));
    const span = this.spanOf(position, length);
    if (span === undefined) {
      throw new Error(`${this.name}: ${length} bytes at ${position} were not loaded before the read`);
    }
    target.set(span.bytes.subarray(position - span.start, position - span.start + length));
    return length;
  }

  close(): void {
    this.window = { start: 0, bytes: new Uint8Array(0) };
  }

  private spanOf(position: number, length: number): Span | undefined {
    for (const span of [this.window, ...this.kept]) {
      if (position >= span.start && position + length <= span.start + span.bytes.length) return span;
    }
    return undefined;
  }
}
