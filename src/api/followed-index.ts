/**
 * A read-only index following the commits another process publishes: it polls the manifest (and,
 * on a local store, also watches the index directory for promptness, since watch events can be
 * lost or unsupported, e.g. on network file systems) and switches to each new commit atomically.
 * A failed poll keeps the last good snapshot in service, is retried with exponential backoff, and
 * shows in `/_health` (degraded, with the age of the served commit) and `/metrics`: never a silent
 * stop.
 */
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { Index } from '../engine/index.js';
import type { Directory, Logger } from '../engine/index.js';
import { HttpError, HttpErrorType } from './http-status.js';
import { ageSeconds } from './served-index.js';
import type { IndexEvents, IndexHealth, ServedIndex, StorageTransfers } from './served-index.js';

/** Longest wait between two attempts after failures. */
const MAX_BACKOFF_MS = 30_000;

/** How a followed index finds its commits. */
export interface FollowOptions {
  /** The index's local directory to watch, or null (object storage: polling only). */
  readonly watchPath: string | null;
  readonly pollIntervalMs: number;
  /** Bytes exchanged with a remote store. */
  readonly transfers?: () => StorageTransfers;
}

/** A read-only index following the commits another process writes. */
export class FollowedIndex implements ServedIndex {
  readonly writable = false;
  private opened: Index | null = null;
  private watcher: FSWatcher | null = null;
  private readonly poll: NodeJS.Timeout;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private failures = 0;
  private lastError: string | undefined;
  private nextAttemptAt = 0;

  constructor(
    readonly name: string,
    private readonly dir: Directory,
    private readonly options: FollowOptions,
    private readonly events: IndexEvents,
    private readonly log: Logger,
  ) {
    this.poll = setInterval(() => { if (Date.now() >= this.nextAttemptAt) void this.check(); }, options.pollIntervalMs);
    this.poll.unref();
  }

  /** Opens the newest commit if there is one (logging how long it took) and starts watching. */
  async start(): Promise<void> {
    await this.check();
    if (this.opened === null) this.log.warn(`index ${this.name} has no commit yet in ${this.dir.describe()}; it is served once one appears`);
    const path = this.options.watchPath;
    if (path !== null) {
      try {
        this.watcher = watch(path, () => { void this.check(); });
        this.watcher.on('error', (e) => { this.log.warn(`watching ${path} failed (${e.message}); polling only`); });
        this.watcher.unref();
      } catch (e) {
        this.log.warn(`cannot watch ${path} (${(e as Error).message}); polling only`);
      }
    }
  }

  index(): Index {
    if (this.opened === null) throw new HttpError(HttpErrorType.unavailable, `index ${this.name} has no commit yet`, { index: this.name });
    return this.opened;
  }

  walBytes(): Promise<number> {
    return Promise.resolve(0);
  }

  transfers(): StorageTransfers | undefined {
    return this.options.transfers?.();
  }

  /** Degraded while polls fail (the last good commit is still served) or before any commit is served. */
  health(): IndexHealth {
    const stats = this.opened?.stats();
    return {
      status: this.failures > 0 || stats === undefined ? 'degraded' : 'ok',
      seq: stats?.seq ?? null,
      commitAgeSeconds: stats === undefined ? null : ageSeconds(stats.committedAt),
      consecutiveFailures: this.failures,
      ...(this.lastError === undefined ? {} : { lastError: this.lastError }),
    };
  }

  /** Switches to the newest commit; resolves once the check that covers this call has finished. */
  async check(): Promise<void> {
    if (this.running !== null) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.reloadOnce();
      } while (this.shouldRunAgain());
    })().finally(() => { this.running = null; });
    return this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poll);
    this.watcher?.close();
    if (this.running !== null) await this.running;
    await this.opened?.close();
  }

  /** A call arrived while a check ran (a method, so the compiler does not narrow the flag). */
  private shouldRunAgain(): boolean {
    return this.again && !this.closed;
  }

  private async reloadOnce(): Promise<void> {
    if (this.closed) return;
    try {
      if (this.opened === null) {
        const started = performance.now();
        const before = this.transfers()?.bytesDownloaded ?? 0;
        this.opened = await Index.open(this.dir, { readOnly: true });
        const ms = Math.round(performance.now() - started);
        const downloaded = (this.transfers()?.bytesDownloaded ?? 0) - before;
        const stats = this.opened.stats();
        this.log.info(`cold start: serving index ${this.name} at seq=${stats.seq} (${stats.docs} docs) after ${ms} ms, ${downloaded} bytes downloaded`, {
          index: this.name, seq: stats.seq, coldStartMs: ms, bytesDownloaded: downloaded,
        });
        this.events.reloaded(this.name, stats.seq);
      } else {
        const before = this.opened.stats().seq;
        const seq = await this.opened.reload();
        if (seq !== before) {
          this.log.info(`index ${this.name}: now serving commit seq=${seq}`);
          this.events.reloaded(this.name, seq);
        }
      }
      if (this.failures > 0) this.log.info(`index ${this.name}: polling recovered after ${this.failures} failed attempt(s)`);
      this.failures = 0;
      this.lastError = undefined;
      this.nextAttemptAt = 0;
    } catch (e) {
      this.recordFailure(e as Error);
    }
  }

  /** Backs off exponentially; logs the first failure of a streak and every tenth after it. */
  private recordFailure(error: Error): void {
    this.failures++;
    this.lastError = error.message;
    this.events.pollFailed(this.name);
    const backoff = Math.min(MAX_BACKOFF_MS, this.options.pollIntervalMs * 2 ** Math.min(this.failures - 1, 16));
    this.nextAttemptAt = Date.now() + backoff;
    if (this.failures === 1 || this.failures % 10 === 0) {
      this.log.warn(`index ${this.name}: poll for new commits failed ${this.failures} time(s) in a row, still serving ${this.opened === null ? 'nothing' : `seq=${this.opened.stats().seq}`}; next attempt in ${backoff} ms (${error.message})`);
    }
  }
}
