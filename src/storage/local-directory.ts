/**
 * The engine's {@link Directory} on a local file system directory.
 *
 * Durability: file content is fsynced by `sync(names)`; a directory entry (a created, renamed or
 * deleted name) is durable only once the directory itself is fsynced, which `rename` always does
 * and `sync(names)` / `Appender.sync` do when entries changed since the last time, so a synced WAL
 * or segment file cannot vanish in a power loss.
 */
import { mkdir, open, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ThreadFilesDirectory, ThreadFilesSpec } from '../engine/commit/engine-worker.js';
import type { Appender, Lock, LockOwner, RandomAccessFile } from '../engine/directory.js';
import { assertFileName } from './file-name.js';
import { LocalAppender } from './local-appender.js';
import { LocalRandomAccessFile } from './local-random-access-file.js';
import { obtainLocalLock } from './local-lock.js';
import { fileNotFoundError, rangePastEndError } from './lock-owner.js';
import { readFully } from './read-fully.js';
import { errorCode } from './system-error.js';

/** Errors of platforms that cannot open or fsync a directory (Windows, some network mounts). */
const DIRECTORY_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EINVAL', 'EPERM', 'EBADF', 'ENOTSUP']);

/** A {@link Directory} backed by one local directory; see the module comment for durability. */
export class LocalDirectory implements ThreadFilesDirectory {
  /** Whether a name was created or removed since the directory was last fsynced. */
  private entriesDirty = false;

  private constructor(
    /** Absolute path of the directory. */
    readonly path: string,
  ) {}

  /** Opens the directory at `path`, creating it (and its parents) if needed. */
  static async open(path: string): Promise<LocalDirectory> {
    const absolute = resolve(path);
    await mkdir(absolute, { recursive: true });
    return new LocalDirectory(absolute);
  }

  /** Regular files with valid names; anything else in the directory is not the engine's. */
  async list(): Promise<string[]> {
    const entries = await readdir(this.path, { withFileTypes: true });
    return entries.filter((e) => e.isFile() && isValidName(e.name)).map((e) => e.name);
  }

  async exists(name: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(name))).isFile();
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return false;
      throw error;
    }
  }

  /** Reads a file into a Uint8Array that owns its whole buffer (never a view into Node's pool). */
  async readFile(name: string): Promise<Uint8Array> {
    const path = this.pathOf(name);
    let buffer: Buffer;
    try {
      buffer = await readFile(path);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') throw fileNotFoundError(name, path, error);
      throw error;
    }
    if (buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength) {
      return new Uint8Array(buffer.buffer, 0, buffer.byteLength);
    }
    return new Uint8Array(buffer);
  }

  async readRange(name: string, offset: number, length: number): Promise<Uint8Array> {
    const path = this.pathOf(name);
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') throw fileNotFoundError(name, path, error);
      throw error;
    }
    try {
      const bytes = await readFully(handle, offset, length);
      if (bytes === null) throw rangePastEndError(name, offset, length, (await handle.stat()).size);
      return bytes;
    } finally {
      await handle.close();
    }
  }

  /** A positional-read descriptor on the file (see local-random-access-file.ts). */
  async openRandomAccess(name: string): Promise<RandomAccessFile> {
    return Promise.resolve(LocalRandomAccessFile.open(name, this.pathOf(name)));
  }

  async writeFile(name: string, data: Uint8Array): Promise<void> {
    const path = this.pathOf(name);
    this.entriesDirty = true;
    await writeFile(path, data);
  }

  /**
   * Lets the engine's background threads write and read this directory's files themselves
   * (`thread-files.ts`, loaded by URL in the thread; under tsx, from source).
   */
  threadFiles(): ThreadFilesSpec {
    const source = import.meta.url.endsWith('.ts');
    return { module: new URL(source ? './thread-files.ts' : './thread-files.js', import.meta.url).href, options: { path: this.path } };
  }

  /** A background thread created `names` (see {@link threadFiles}): the next sync fsyncs the entries. */
  wroteOnThread(names: readonly string[]): void {
    if (names.length > 0) this.entriesDirty = true;
  }

  async sync(names: readonly string[]): Promise<void> {
    const paths = names.map((name) => [name, this.pathOf(name)] as const);
    await Promise.all(paths.map(([name, path]) => syncFile(name, path)));
    if (this.entriesDirty) await this.syncDirectory();
  }

  async rename(from: string, to: string): Promise<void> {
    const fromPath = this.pathOf(from);
    const toPath = this.pathOf(to);
    try {
      await rename(fromPath, toPath);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') throw fileNotFoundError(from, fromPath, error);
      throw error;
    }
    this.entriesDirty = true;
    await this.syncDirectory();
  }

  async delete(name: string): Promise<void> {
    const path = this.pathOf(name);
    try {
      await unlink(path);
      this.entriesDirty = true;
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
  }

  async openAppender(name: string): Promise<Appender> {
    return LocalAppender.open(this.pathOf(name), () => this.syncDirectory());
  }

  /**
   * Takes the lock file `name`. Live holders: another process on this host whose pid is alive, a
   * holder on another host (which cannot be checked), or another obtain in this process. Stale: a
   * dead pid on this host, our own pid left by an earlier process, or a garbled file (a crash
   * between creating and writing it); reported to `onStale` with pid 0 / host `unknown` if garbled.
   */
  async obtainLock(name: string, owner: LockOwner, onStale?: (stale: LockOwner) => void): Promise<Lock> {
    return obtainLocalLock(this.pathOf(name), owner, onStale);
  }

  describe(): string {
    return this.path;
  }

  private pathOf(name: string): string {
    assertFileName(name);
    return join(this.path, name);
  }

  /** fsyncs the directory so that its entries (creations, renames, deletions) are durable. */
  private async syncDirectory(): Promise<void> {
    // Cleared first: an entry created while the fsync runs sets it again and is synced next time.
    this.entriesDirty = false;
    try {
      const handle = await open(this.path, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (error) {
      const code = errorCode(error);
      if (code !== undefined && DIRECTORY_SYNC_UNSUPPORTED.has(code)) return;
      this.entriesDirty = true;
      throw error;
    }
  }
}

function isValidName(name: string): boolean {
  try {
    assertFileName(name);
    return true;
  } catch {
    return false;
  }
}

/** fsyncs one file; read-write where allowed because some platforms refuse fsync on read-only. */
async function syncFile(name: string, path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r+').catch(async (error: unknown) => {
      const code = errorCode(error);
      if (code === 'EACCES' || code === 'EPERM' || code === 'EISDIR') return open(path, 'r');
      throw error;
    });
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw fileNotFoundError(name, path, error);
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
