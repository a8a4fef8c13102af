/**
 * The local append-only file behind the write-ahead log. Operations run one after another in call
 * order, so a `sync()` covers every `append()` issued before it even if the caller did not await.
 */
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { Appender } from '../engine/directory.js';
import { errorCode } from './system-error.js';

/** An {@link Appender} over a FileHandle opened in append mode. */
export class LocalAppender implements Appender {
  private tail: Promise<unknown> = Promise.resolve();
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly handle: FileHandle,
    private bytes: number,
    /** A new file's directory entry is not durable until the directory is fsynced too. */
    private needsDirectorySync: boolean,
    private readonly syncDirectory: () => Promise<void>,
  ) {}

  /**
   * Opens `path` for appending, creating it if needed; `syncDirectory` is called on the first sync
   * when the file was created here.
   */
  static async open(path: string, syncDirectory: () => Promise<void>): Promise<LocalAppender> {
    let handle: FileHandle;
    let created = true;
    try {
      handle = await open(path, 'ax');
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      handle = await open(path, 'a');
      created = false;
    }
    try {
      const { size } = await handle.stat();
      return new LocalAppender(handle, size, created, syncDirectory);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  get size(): number {
    return this.bytes;
  }

  append(data: Uint8Array): Promise<void> {
    return this.enqueue(() => this.write(data));
  }

  appendFrom(length: number, take: () => Promise<Uint8Array | null>): Promise<void> {
    return this.enqueue(async () => {
      const data = await take();
      if (data === null) {
        // Written through another handle opened in append mode, while this queue waited.
        this.bytes += length;
        return;
      }
      await this.write(data);
    });
  }

  sync(): Promise<void> {
    return this.enqueue(async () => {
      await this.handle.datasync();
      if (this.needsDirectorySync) {
        await this.syncDirectory();
        this.needsDirectorySync = false;
      }
    });
  }

  close(): Promise<void> {
    this.closing ??= this.tail.then(() => this.handle.close());
    return this.closing;
  }

  private async write(data: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < data.length) {
      const { bytesWritten } = await this.handle.write(data, offset, data.length - offset);
      offset += bytesWritten;
      this.bytes += bytesWritten;
    }
  }

  private enqueue(op: () => Promise<void>): Promise<void> {
    if (this.closing !== undefined) return Promise.reject(new Error('appender is closed'));
    const run = this.tail.then(op);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
