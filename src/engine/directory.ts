/**
 * The engine's storage port. The engine reads and writes whole files through a Directory and never
 * touches a file system, network or object store itself; `src/storage/` implements this contract
 * (local disk, memory, S3) and `test/storage/directory-contract.ts` checks every implementation.
 *
 * File names are flat (no slashes) and made of `[A-Za-z0-9._-]`.
 */
export interface Directory {
  /** Names of every file in the directory, in no particular order. */
  list(): Promise<string[]>;

  /** Whether a file exists. */
  exists(name: string): Promise<boolean>;

  /**
   * Reads a whole file. Rejects with a YarrowError `file_not_found` when it is missing. The bytes
   * are the caller's: the directory keeps no reference to them (a merge thread takes them over).
   */
  readFile(name: string): Promise<Uint8Array>;

  /**
   * Reads `length` bytes of a file starting at `offset`, so that a reader can keep a large file on
   * storage and fetch only the part it needs (a term block, one field's section). Rejects with a
   * YarrowError `file_not_found` when the file is missing and with `corrupt_index` when the range
   * runs past the end of the file.
   */
  readRange(name: string, offset: number, length: number): Promise<Uint8Array>;

  /**
   * Opens a file for synchronous reads by position (the analogue of Lucene's mmap: searches are
   * synchronous, so a reader that keeps a large file on storage must read it without awaiting).
   * Optional: a directory that cannot read a file synchronously leaves it out, and the engine
   * then loads what it needs through {@link Directory.readRange} instead. Rejects like
   * {@link Directory.readFile} when the file is missing.
   */
  openRandomAccess?(name: string): Promise<RandomAccessFile>;

  /**
   * Creates or replaces a file with `data`. The bytes are NOT guaranteed durable until
   * {@link Directory.sync} has resolved for this name. Never use it to replace a file that readers
   * may open concurrently: write a new name and {@link Directory.rename} it instead.
   */
  writeFile(name: string, data: Uint8Array): Promise<void>;

  /** Makes the content of the named files durable (fsync). */
  sync(names: readonly string[]): Promise<void>;

  /**
   * Atomically renames `from` to `to`, replacing `to` if it exists; readers see either the old or
   * the new file, never a mix. Durable once resolved (the directory entry is synced too).
   */
  rename(from: string, to: string): Promise<void>;

  /** Deletes a file; deleting a missing file is not an error. */
  delete(name: string): Promise<void>;

  /** Opens (creating if needed) an append-only file, positioned at its end. */
  openAppender(name: string): Promise<Appender>;

  /**
   * Takes the exclusive lock `name` for `owner`. Rejects with a YarrowError `lock_held` naming the
   * holder when a live holder has it. A stale lock (its holder process is gone) is reported through
   * `onStale` and then taken over: detected and logged, never silently stolen.
   */
  obtainLock(name: string, owner: LockOwner, onStale?: (stale: LockOwner) => void): Promise<Lock>;

  /** A human-readable description (path, bucket/prefix) for logs. */
  describe(): string;
}

/**
 * A file open for synchronous reads by position. The file is immutable while open (the engine
 * opens only segment files this way). The handle is closed by {@link RandomAccessFile.close} (a
 * segment reader closes its handles when the last snapshot holding it is released), or when it is
 * garbage-collected (a reader that no snapshot ever held).
 */
export interface RandomAccessFile {
  /** The file's name in its directory, for error messages. */
  readonly name: string;
  /** Bytes in the file when it was opened. */
  readonly size: number;
  /**
   * Reads `target.length` bytes starting at `position` into `target`; returns how many were read
   * (fewer only at the end of the file).
   */
  read(target: Uint8Array, position: number): number;
  /** Releases the handle; idempotent. */
  close(): void;
}

/** An append-only file handle, used by the write-ahead log. */
export interface Appender {
  /** Bytes in the file, including appended but unsynced bytes. */
  readonly size: number;
  /**
   * Appends bytes; not durable until {@link Appender.sync} resolves. Once the returned promise
   * resolves, `data` is no longer referenced (the writer hands a logged record's buffer over to its
   * inversion thread).
   */
  append(data: Uint8Array): Promise<void>;
  /**
   * Appends `length` bytes that another thread holds, in this appender's order (after every
   * earlier append, before any later one or sync): `take()` either appends them to this file
   * itself, through a handle of its own, and resolves null, or resolves with the bytes for this
   * appender to write. Not durable until {@link Appender.sync} resolves, as {@link append}. Optional:
   * a local file's appender has it (the writer's inversion thread then writes an `_index` body's
   * log record itself, issue 17); without it the writer asks the thread for the bytes.
   */
  appendFrom?(length: number, take: () => Promise<Uint8Array | null>): Promise<void>;
  /** Makes every byte appended so far durable. */
  sync(): Promise<void>;
  /** Closes the handle (without an implicit sync). */
  close(): Promise<void>;
}

/** Who holds a lock. Written into the lock so that a refused writer can name the holder. */
export interface LockOwner {
  pid: number;
  hostname: string;
  /** ISO timestamp of when the lock was taken. */
  since: string;
}

/** A held lock. */
export interface Lock {
  readonly owner: LockOwner;
  /** Releases the lock; idempotent. */
  release(): Promise<void>;
}
