/**
 * A local directory's files as a background engine thread (an inversion or merge thread) writes
 * and reads them: synchronously, on that thread. The thread runs at nice 19 under `SCHED_IDLE`
 * (`engine/commit/thread-policy.ts`), so the kernel's copy of a segment's bytes into the page cache
 * (or out of it, for a merge's sources) is charged to a thread that yields its core the moment
 * anything else wants it. Done by the writer's thread through `fs/promises`, the same copies ran
 * on libuv's pool at normal priority and held the core the event loop was queued on in a quarter
 * to a third of its waits over 0.5 ms (issue 17: search p99 while `api` indexes; scheduler traces
 * of bench:http read with bench/http/sched-trace.ts).
 *
 * Durability is the directory's own: {@link ThreadFiles.write} is `Directory.writeFile` (content
 * not durable until the writer's `sync(names)`), and the writer's thread is told which names the
 * thread created (`LocalDirectory.wroteOnThread`), so that its next sync fsyncs the directory's
 * entries too.
 *
 * A thread loads this module by the URL `LocalDirectory.threadFiles()` gives (the engine imports no
 * file system code: `.dependency-cruiser.cjs`).
 */
import { closeSync, constants, fstatSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ThreadFileAccess } from '../engine/commit/engine-worker.js';
import { assertFileName } from './file-name.js';
import { fileNotFoundError, rangePastEndError } from './lock-owner.js';
import { errorCode } from './system-error.js';

/**
 * The most bytes one system call copies. The kernel here runs without involuntary preemption
 * (`CONFIG_PREEMPT_NONE`): a thread inside one `write` of a 20 MB log record or segment file keeps
 * its core until the copy into the page cache ends, whatever its idle priority, and an event loop
 * woken onto that core waits. Each call's return to user space is a point where it yields.
 */
const MAX_COPY = 256 * 1024;

/** What `LocalDirectory.threadFiles()` hands a thread: the directory's absolute path. */
export interface ThreadFilesOptions {
  readonly path: string;
}

/** Synchronous writes and reads of one local directory's files; see the module comment. */
export class ThreadFiles implements ThreadFileAccess {
  constructor(private readonly path: string) {}

  /**
   * Creates or replaces each file with its bytes (not fsynced: see the module comment). Should a
   * write fail, the files this call opened are removed before the error is thrown: the caller
   * reports only whole calls to the writer's thread, which deletes those of a failed merge.
   */
  write(files: Iterable<readonly [string, Uint8Array]>): void {
    const opened: string[] = [];
    try {
      for (const [name, bytes] of files) {
        const path = this.pathOf(name);
        const fd = openSync(path, 'w');
        opened.push(path);
        try {
          for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, Math.min(MAX_COPY, bytes.length - done));
        } finally {
          closeSync(fd);
        }
      }
    } catch (error) {
      for (const path of opened) rmSync(path, { force: true });
      throw error;
    }
  }

  /**
   * Appends `bytes` to the existing file `name` through a handle of its own in append mode (the
   * write-ahead log: its appender on the writer's thread, `LocalAppender.appendFrom`, waits for
   * this call in its queue and fsyncs the file later). Never creates the file: the log's
   * generation is created, with its header, by the writer's thread.
   */
  append(name: string, bytes: Uint8Array): void {
    const fd = openSync(this.pathOf(name), constants.O_WRONLY | constants.O_APPEND);
    try {
      for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, Math.min(MAX_COPY, bytes.length - done));
    } finally {
      closeSync(fd);
    }
  }

  /** Reads a whole file, or `length` bytes of it from `offset`; rejects as `LocalDirectory` does. */
  read(name: string, offset?: number, length?: number): Uint8Array {
    const path = this.pathOf(name);
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') throw fileNotFoundError(name, path, error);
      throw error;
    }
    try {
      const size = fstatSync(fd).size;
      const start = offset ?? 0;
      const count = length ?? size - start;
      if (start + count > size) throw rangePastEndError(name, start, count, size);
      const bytes = new Uint8Array(count);
      for (let done = 0; done < count;) {
        const n = readSync(fd, bytes, done, Math.min(MAX_COPY, count - done), start + done);
        if (n === 0) throw rangePastEndError(name, start, count, start + done);
        done += n;
      }
      return bytes;
    } finally {
      closeSync(fd);
    }
  }

  private pathOf(name: string): string {
    assertFileName(name);
    return join(this.path, name);
  }
}

/** The entry a thread calls once it has imported this module. */
export function openThreadFiles(options: ThreadFilesOptions): ThreadFiles {
  return new ThreadFiles(options.path);
}
