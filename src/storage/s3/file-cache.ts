/**
 * A local directory of immutable files copied from object storage, bounded in bytes, evicting the
 * least recently used files first. Entries are written to a temporary name and renamed in, so a
 * crash never leaves a half file under a real name; a file that vanished (another process sharing
 * the directory evicted it) is simply a miss. Content is not verified here: the engine checks each
 * file's size and CRC32 against the manifest when it reads it.
 */
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from '../system-error.js';
import { readFully } from '../read-fully.js';

/** Bytes per ranged GET when an object is downloaded to disk. */
export const DOWNLOAD_CHUNK = 8 * 1024 * 1024;

/** A bounded LRU cache of whole files on local disk. */
export class FileCache {
  /** Name -> size, in recency order (least recent first; a Map keeps insertion order). */
  private readonly entries = new Map<string, number>();
  private bytes = 0;
  private tempCounter = 0;

  private constructor(
    readonly path: string,
    readonly maxBytes: number,
  ) {}

  /**
   * Opens (creating) the cache at `path`. Files already there are kept, oldest-modified first in
   * the recency order, unless `wipe` is set (a writer cannot trust copies an earlier process made).
   */
  static async open(path: string, maxBytes: number, wipe: boolean): Promise<FileCache> {
    if (wipe) await rm(path, { recursive: true, force: true });
    await mkdir(path, { recursive: true });
    const cache = new FileCache(path, maxBytes);
    const found: { name: string; size: number; mtime: number }[] = [];
    for (const name of await readdir(path)) {
      const full = join(path, name);
      if (name.startsWith('.tmp-')) {
        await unlink(full).catch(() => undefined);
        continue;
      }
      const s = await stat(full).catch(() => null);
      if (s?.isFile() === true) found.push({ name, size: s.size, mtime: s.mtimeMs });
    }
    found.sort((a, b) => a.mtime - b.mtime);
    for (const f of found) cache.remember(f.name, f.size);
    await cache.evict();
    return cache;
  }

  /** Bytes held now. */
  get size(): number {
    return this.bytes;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** A cached file's bytes, or undefined on a miss. */
  async read(name: string): Promise<Uint8Array | undefined> {
    if (!this.entries.has(name)) return undefined;
    try {
      const buffer = await readFile(join(this.path, name));
      this.touch(name);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      this.forget(name);
      return undefined;
    }
  }

  /** `length` bytes at `offset` of a cached file, `null` past its end, undefined on a miss. */
  async readRange(name: string, offset: number, length: number): Promise<Uint8Array | null | undefined> {
    if (!this.entries.has(name)) return undefined;
    let handle;
    try {
      handle = await open(join(this.path, name), 'r');
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      this.forget(name);
      return undefined;
    }
    try {
      const bytes = await readFully(handle, offset, length);
      if (bytes !== null) this.touch(name);
      return bytes;
    } finally {
      await handle.close();
    }
  }

  /** Stores a copy of `bytes` (skipped when the file alone exceeds the budget). */
  async put(name: string, bytes: Uint8Array): Promise<void> {
    if (bytes.length > this.maxBytes) return;
    const temp = join(this.path, `.tmp-${process.pid}-${this.tempCounter++}`);
    await writeFile(temp, bytes);
    await this.moveIn(name, temp, bytes.length);
  }

  /**
   * Downloads `size` bytes into a new temporary file of the cache's directory through `fetch`, in
   * ranges of at most `chunk` bytes, so a large object never sits whole in memory; returns the
   * temporary path (for {@link adopt}).
   */
  async download(size: number, fetch: (offset: number, length: number) => Promise<Uint8Array>, chunk = DOWNLOAD_CHUNK): Promise<string> {
    const temp = join(this.path, `.tmp-${process.pid}-${this.tempCounter++}`);
    const handle = await open(temp, 'w');
    try {
      for (let offset = 0; offset < size; offset += chunk) {
        const bytes = await fetch(offset, Math.min(chunk, size - offset));
        await handle.write(bytes, 0, bytes.length, offset);
      }
    } catch (error) {
      await handle.close();
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    await handle.close();
    return temp;
  }

  /** The local path of a cached file (it may be evicted at any time: open it, then check). */
  pathOf(name: string): string {
    return join(this.path, name);
  }

  /** Moves a local file (on the same file system) into the cache under `name`. */
  async adopt(name: string, from: string, size: number): Promise<void> {
    if (size > this.maxBytes) {
      await unlink(from).catch(() => undefined);
      return;
    }
    await this.moveIn(name, from, size);
  }

  /** Drops a file from the cache. */
  async remove(name: string): Promise<void> {
    if (!this.entries.has(name)) return;
    this.forget(name);
    await unlink(join(this.path, name)).catch((error: unknown) => {
      if (errorCode(error) !== 'ENOENT') throw error;
    });
  }

  private async moveIn(name: string, from: string, size: number): Promise<void> {
    await rename(from, join(this.path, name));
    this.forget(name);
    this.remember(name, size);
    await this.evict(name);
  }

  /** Removes least recently used files until the cache fits its budget, never `keep`. */
  private async evict(keep?: string): Promise<void> {
    for (const [name] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      if (name === keep) continue;
      await this.remove(name);
    }
  }

  private touch(name: string): void {
    const size = this.entries.get(name);
    if (size === undefined) return;
    this.entries.delete(name);
    this.entries.set(name, size);
  }

  private remember(name: string, size: number): void {
    this.entries.set(name, size);
    this.bytes += size;
  }

  private forget(name: string): void {
    const size = this.entries.get(name);
    if (size === undefined) return;
    this.entries.delete(name);
    this.bytes -= size;
  }
}
