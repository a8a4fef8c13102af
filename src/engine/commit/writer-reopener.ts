/**
 * The writer reopener: when an I/O failure (disk full, EIO) stops an {@link IndexWriter}, it brings
 * the write side back without a restart. The failed writer hands over its lock (`abandon`), then
 * recovery (`recovery.ts`) runs again with that lock, with backoff between attempts, until it
 * succeeds: it deletes what no commit references (which frees the space a half-written flush took),
 * replays the write-ahead log — every acknowledged batch — and commits it. Until then every write
 * answers the failed writer's `index_unavailable` error, and searches keep reading the failed
 * writer's last published snapshot.
 */
import type { Directory } from '../directory.js';
import type { YarrowError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { IndexWriter } from './index-writer.js';
import { recover } from './recovery.js';
import type { RecoveryOptions } from './recovery.js';
import { describeCause } from './writer-failure.js';

/** Delays between reopen attempts: `firstMs`, doubling up to `maxMs`. */
export interface ReopenBackoff {
  readonly firstMs: number;
  readonly maxMs: number;
}

export const defaultReopenBackoff: ReopenBackoff = { firstMs: 250, maxMs: 10_000 };

/** How a failed writer is doing, for health reports. */
export interface WriterFailureStatus {
  /** The `index_unavailable` reason every write answers (no paths). */
  readonly reason: string;
  /** ISO time of the failure. */
  readonly since: string;
  /** Reopen attempts made so far, and why the last one failed. */
  readonly reopenAttempts: number;
  readonly lastReopenError?: string;
}

/** Watches a writer and reopens it after a failure; see the module comment. */
export class WriterReopener {
  private status: WriterFailureStatus | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;

  /**
   * @param recovery how to recover (without `lock`: the failed writer's lock is used)
   * @param reopened called with the new writer once a reopen succeeded (it is watched too)
   */
  constructor(
    private readonly dir: Directory,
    private readonly recovery: RecoveryOptions,
    private readonly backoff: ReopenBackoff,
    private readonly log: Logger,
    private readonly reopened: (writer: IndexWriter) => void,
  ) {}

  /** Reopens `writer` once it fails. */
  watch(writer: IndexWriter): void {
    void writer.whenFailed().then((error) => {
      if (this.stopped) return;
      this.running = this.reopen(writer, error);
    });
  }

  /** The failure being recovered from, or null while the writer works. */
  failure(): WriterFailureStatus | null {
    return this.status;
  }

  /**
   * Stops retrying and waits for an attempt in flight. If none succeeded, the lock is released;
   * if one did, the new writer was handed over and is the caller's to close.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  private async reopen(failed: IndexWriter, error: YarrowError): Promise<void> {
    let status: WriterFailureStatus = { reason: error.message, since: new Date().toISOString(), reopenAttempts: 0 };
    this.status = status;
    const knownReaders = failed.committedReaders();
    const lock = await failed.abandon();
    let delay = this.backoff.firstMs;
    while (!(await this.sleep(delay))) {
      try {
        const { writer } = await recover(this.dir, { ...this.recovery, lock, knownReaders });
        this.log.info(`index writer reopened after ${status.reopenAttempts + 1} attempt(s): the write-ahead log was replayed and committed; writes are accepted again`);
        this.status = null;
        this.reopened(writer);
        this.watch(writer);
        return;
      } catch (e) {
        delay = Math.min(delay * 2, this.backoff.maxMs);
        status = { ...status, reopenAttempts: status.reopenAttempts + 1, lastReopenError: describeCause(e) };
        this.status = status;
        this.log.warn(`reopening the index writer failed (attempt ${status.reopenAttempts}, next in ${delay} ms): ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    await lock.release();
  }

  /** Waits `ms`; resolves true when stopped meanwhile (or before). */
  private async sleep(ms: number): Promise<boolean> {
    if (this.stopped) return true;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      // A process with nothing else to do should not stay up to retry.
      timer.unref();
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = null;
    return this.stopped;
  }
}
