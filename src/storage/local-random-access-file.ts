/**
 * A local file open for synchronous positional reads (`pread`), the {@link RandomAccessFile} of
 * {@link LocalDirectory}. Node has no mmap; reading by position through the engine's own bounded
 * page cache is the analogue of Lucene's MMapDirectory + the OS page cache, and the OS page cache
 * still sits underneath, so a re-read of a hot page costs a copy, not a disk access.
 *
 * Segment readers close their handles when the last snapshot that holds them is released
 * (`SegmentReader.retain`); a handle dropped without {@link close} (a reader never held by a
 * snapshot) is closed when it is garbage-collected (a FinalizationRegistry holds only the
 * descriptor, never the handle).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { RandomAccessFile } from '../engine/directory.js';
import { fileNotFoundError } from './lock-owner.js';
import { errorCode } from './system-error.js';

const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed by the process tearing down: nothing to release.
  }
});

/** A read-only descriptor on one local file. */
export class LocalRandomAccessFile implements RandomAccessFile {
  private fd: number;
  readonly size: number;

  private constructor(
    readonly name: string,
    fd: number,
  ) {
    this.fd = fd;
    this.size = fstatSync(fd).size;
    closer.register(this, fd, this);
  }

  /** Opens `path` (the file `name` of its directory) for reading. */
  static open(name: string, path: string): LocalRandomAccessFile {
    try {
      return new LocalRandomAccessFile(name, openSync(path, 'r'));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') throw fileNotFoundError(name, path, error);
      throw error;
    }
  }

  read(target: Uint8Array, position: number): number {
    if (this.fd < 0) throw new Error(`${this.name}: read after close`);
    let done = 0;
    while (done < target.length) {
      const n = readSync(this.fd, target, done, target.length - done, position + done);
      if (n === 0) break;
      done += n;
    }
    return done;
  }

  close(): void {
    if (this.fd < 0) return;
    closer.unregister(this);
    const fd = this.fd;
    this.fd = -1;
    closeSync(fd);
  }
}
