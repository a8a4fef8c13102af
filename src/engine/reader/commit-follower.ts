/**
 * Following the commits another process publishes (a `yarrow search` process, a searcher of an S3
 * index): polls the manifest every `pollIntervalMs` and switches to each new commit atomically. A
 * failed poll keeps the last good snapshot in service, is retried with exponential backoff and
 * shows in {@link CommitFollower.health} (degraded, with the age of the served commit): never a
 * silent stop. Callers that can learn of a change sooner (a file system watch) call
 * {@link CommitFollower.check}; overlapping checks coalesce into one more.
 */
import type { Directory } from '../directory.js';
import type { Embedder } from '../embedder.js';
import type { Logger } from '../logger.js';
import { Index } from '../search-index.js';

/** Longest wait between two attempts after failures. */
const MAX_BACKOFF_MS = 30_000;

/** How a follower polls and whom it tells. */
export interface FollowOptions {
  readonly pollIntervalMs: number;
  /** Bytes downloaded from a remote store so far, for the cold-start log line. */
  readonly bytesDownloaded?: () => number;
  /** A new commit is served. */
  readonly onReload?: (seq: number) => void;
  /** A poll failed. */
  readonly onPollFailed?: () => void;
  /** Embedding models for `semantic` queries (see IndexOpenOptions.embedders). */
  readonly embedders?: ReadonlyMap<string, Embedder>;
}

/** How a followed index is doing. */
export interface FollowHealth {
  readonly status: 'ok' | 'degraded';
  /** Seq of the served commit (null before the first one). */
  readonly seq: number | null;
  /** Seconds since the served commit was made (null before the first one). */
  readonly commitAgeSeconds: number | null;
  /** Polls that failed in a row, and the last failure's message. */
  readonly consecutiveFailures: number;
  readonly lastError?: string;
}

/** A read-only index that follows the commits in `dir`; see the module comment. */
export class CommitFollower {
  private opened: Index | null = null;
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
    private readonly log: Logger,
  ) {
    this.poll = setInterval(() => { if (Date.now() >= this.nextAttemptAt) void this.check(); }, options.pollIntervalMs);
    this.poll.unref();
  }

  /** Opens the newest commit if there is one (logging how long it took). */
  async start(): Promise<void> {
    await this.check();
    if (this.opened === null) this.log.warn(`index ${this.name} has no commit yet in ${this.dir.describe()}; it is served once one appears`);
  }

  /** The served index, or null before the first commit. */
  index(): Index | null {
    return this.opened;
  }

  /** Degraded while polls fail (the last good commit is still served) or before any commit is served. */
  health(): FollowHealth {
    const stats = this.opened?.stats();
    return {
      status: this.failures > 0 || stats === undefined ? 'degraded' : 'ok',
      seq: stats?.seq ?? null,
      commitAgeSeconds: stats === undefined ? null : Math.max(0, (Date.now() - Date.parse(stats.committedAt)) / 1000),
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
        const before = this.options.bytesDownloaded?.() ?? 0;
        this.opened = await Index.open(this.dir, { readOnly: true, ...(this.options.embedders === undefined ? {} : { embedders: this.options.embedders }) });
        const ms = Math.round(performance.now() - started);
        const downloaded = (this.options.bytesDownloaded?.() ?? 0) - before;
        const stats = this.opened.stats();
        this.log.info(`cold start: serving index ${this.name} at seq=${stats.seq} (${stats.docs} docs) after ${ms} ms, ${downloaded} bytes downloaded`, {
          index: this.name, seq: stats.seq, coldStartMs: ms, bytesDownloaded: downloaded,
        });
        this.options.onReload?.(stats.seq);
      } else {
        const before = this.opened.stats().seq;
        const seq = await this.opened.reload();
        if (seq !== before) {
          this.log.info(`index ${this.name}: now serving commit seq=${seq}`);
          this.options.onReload?.(seq);
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
    this.options.onPollFailed?.();
    const backoff = Math.min(MAX_BACKOFF_MS, this.options.pollIntervalMs * 2 ** Math.min(this.failures - 1, 16));
    this.nextAttemptAt = Date.now() + backoff;
    if (this.failures === 1 || this.failures % 10 === 0) {
      this.log.warn(`index ${this.name}: poll for new commits failed ${this.failures} time(s) in a row, still serving ${this.opened === null ? 'nothing' : `seq=${this.opened.stats().seq}`}; next attempt in ${backoff} ms (${error.message})`);
    }
  }
}
