/**
 * The engine's {@link Directory} in memory, for tests and throwaway indexes, with a crash model.
 *
 * Crash model ({@link MemoryDirectory.crashCopy}, a power loss as the engine must survive it):
 * - a file's content is durable as of its last `sync([name])` or `Appender.sync()`; writes and
 *   appends after that are lost, and a file never synced does not survive at all;
 * - `rename` is durable at once (as on a local disk, where it fsyncs the directory), and the new
 *   name carries the content the source had when it was last synced: empty if it never was, which
 *   is how a missing fsync before a rename shows up in tests;
 * - `delete` is durable at once (simpler than real disks, and losing a delete is harmless to the
 *   engine since it only deletes files no manifest names);
 * - locks are not carried over: the process that held them is gone.
 */
import type { Appender, Directory, Lock, LockOwner } from '../engine/directory.js';
import { assertFileName } from './file-name.js';
import { decodeLockRecord, encodeLockOwner, encodeReleasedLock, fileNotFoundError, lockHeldError, rangePastEndError, unknownLockOwner } from './lock-owner.js';

/** A growable byte buffer, so that appending to the WAL is not quadratic. */
class MemoryFile {
  private data: Uint8Array;
  length: number;

  constructor(initial: Uint8Array) {
    this.data = initial.slice();
    this.length = initial.length;
  }

  /** A copy of the content: callers never alias the stored bytes. */
  snapshot(): Uint8Array {
    return this.data.slice(0, this.length);
  }

  /** A copy of `length` bytes at `offset`, or undefined when the range runs past the end. */
  range(offset: number, length: number): Uint8Array | undefined {
    if (offset < 0 || length < 0 || offset + length > this.length) return undefined;
    return this.data.slice(offset, offset + length);
  }

  append(bytes: Uint8Array): void {
    const needed = this.length + bytes.length;
    if (needed > this.data.length) {
      const grown = new Uint8Array(Math.max(needed, this.data.length * 2, 64));
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    this.data.set(bytes, this.length);
    this.length = needed;
  }
}

let instances = 0;

/** A {@link Directory} held in a Map; see the module comment for its crash model. */
export class MemoryDirectory implements Directory {
  private readonly files = new Map<string, MemoryFile>();
  /** What survives a crash: content as of the last sync, per name. */
  private readonly durable = new Map<string, Uint8Array>();
  /** Locks held through this instance (its "process"). */
  private readonly locks = new Map<string, LockOwner>();
  private readonly label: string;

  /** Creates an empty directory; `label` names it in {@link MemoryDirectory.describe}. */
  constructor(label?: string) {
    instances++;
    this.label = label ?? `memory:${instances}`;
  }

  /**
   * A new directory holding only the durable state of this one, as a process restarted after a
   * power loss would find it. This directory is left unchanged and the two share nothing.
   */
  crashCopy(): MemoryDirectory {
    const copy = new MemoryDirectory(`${this.label} (after crash)`);
    for (const [name, bytes] of this.durable) {
      copy.files.set(name, new MemoryFile(bytes));
      copy.durable.set(name, bytes.slice());
    }
    return copy;
  }

  list(): Promise<string[]> {
    return Promise.resolve([...this.files.keys()]);
  }

  async exists(name: string): Promise<boolean> {
    assertFileName(name);
    return Promise.resolve(this.files.has(name));
  }

  async readFile(name: string): Promise<Uint8Array> {
    return Promise.resolve(this.fileOf(name).snapshot());
  }

  async readRange(name: string, offset: number, length: number): Promise<Uint8Array> {
    const file = this.fileOf(name);
    const bytes = file.range(offset, length);
    if (bytes === undefined) throw rangePastEndError(name, offset, length, file.length);
    return Promise.resolve(bytes);
  }

  async writeFile(name: string, data: Uint8Array): Promise<void> {
    assertFileName(name);
    this.files.set(name, new MemoryFile(data));
    return Promise.resolve();
  }

  async sync(names: readonly string[]): Promise<void> {
    const files = names.map((name) => [name, this.fileOf(name)] as const);
    for (const [name, file] of files) this.durable.set(name, file.snapshot());
    return Promise.resolve();
  }

  async rename(from: string, to: string): Promise<void> {
    assertFileName(to);
    const file = this.fileOf(from);
    if (from === to) return;
    this.files.delete(from);
    this.files.set(to, file);
    this.durable.set(to, this.durable.get(from) ?? new Uint8Array(0));
    this.durable.delete(from);
    return Promise.resolve();
  }

  async delete(name: string): Promise<void> {
    assertFileName(name);
    this.files.delete(name);
    this.durable.delete(name);
    return Promise.resolve();
  }

  async openAppender(name: string): Promise<Appender> {
    assertFileName(name);
    let file = this.files.get(name);
    if (file === undefined) {
      file = new MemoryFile(new Uint8Array(0));
      this.files.set(name, file);
    }
    const appended = file;
    // Like an open file descriptor, the appender keeps writing to its file even if the name is
    // replaced or deleted; syncing it then makes nothing under the name durable.
    return Promise.resolve(
      new MemoryAppender(appended, () => {
        if (this.files.get(name) === appended) this.durable.set(name, appended.snapshot());
      }),
    );
  }

  /**
   * Takes lock `name` (a file holding the owner's record, as on disk; it stays after release as a
   * `released` record). Held through this instance: live. A held record nobody here holds (left by
   * a crash copy's source, or written by a test) has no live process behind it, so it is stale and
   * reported to `onStale`.
   */
  async obtainLock(name: string, owner: LockOwner, onStale?: (stale: LockOwner) => void): Promise<Lock> {
    assertFileName(name);
    const where = `${this.label}/${name}`;
    const holder = this.locks.get(name);
    if (holder !== undefined) throw lockHeldError(holder, where);
    const existing = this.files.get(name);
    if (existing !== undefined) {
      const record = decodeLockRecord(existing.snapshot());
      if (record?.state !== 'released') onStale?.(record?.owner ?? unknownLockOwner('unknown'));
    }
    const file = new MemoryFile(encodeLockOwner(owner));
    this.files.set(name, file);
    this.durable.set(name, file.snapshot());
    this.locks.set(name, owner);
    let released = false;
    const release = (): Promise<void> => {
      if (!released) {
        released = true;
        if (this.locks.get(name) === owner) this.locks.delete(name);
        if (this.files.get(name) === file) {
          const record = new MemoryFile(encodeReleasedLock(owner, new Date().toISOString()));
          this.files.set(name, record);
          this.durable.set(name, record.snapshot());
        }
      }
      return Promise.resolve();
    };
    return Promise.resolve({ owner, release });
  }

  describe(): string {
    return this.label;
  }

  private fileOf(name: string): MemoryFile {
    assertFileName(name);
    const file = this.files.get(name);
    if (file === undefined) throw fileNotFoundError(name, `${this.label}/${name}`);
    return file;
  }
}

/** An {@link Appender} onto one {@link MemoryFile}. */
class MemoryAppender implements Appender {
  private closed = false;

  constructor(
    private readonly file: MemoryFile,
    private readonly onSync: () => void,
  ) {}

  get size(): number {
    return this.file.length;
  }

  async append(data: Uint8Array): Promise<void> {
    this.assertOpen();
    this.file.append(data);
    return Promise.resolve();
  }

  async sync(): Promise<void> {
    this.assertOpen();
    this.onSync();
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('appender is closed');
  }
}
