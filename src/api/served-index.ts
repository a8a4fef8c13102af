/**
 * The indexes a server serves, each behind one small interface: a writable index (this process
 * holds its write lock and refreshes it on a timer) or a followed one (read-only, switching to each
 * new commit another process makes: fs.watch on the index directory for promptness, plus a poll
 * because watch events can be lost or unsupported, e.g. on network file systems).
 */
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Index } from '../engine/index.js';
import type { Directory, Logger } from '../engine/index.js';
import { HttpError, HttpErrorType } from './http-status.js';

/** What a served index reports to the server's metrics (commits and refreshes are read from the engine). */
export interface IndexEvents {
  reloaded(index: string, seq: number): void;
}

/** One index as the HTTP layer sees it. */
export interface ServedIndex {
  readonly name: string;
  readonly writable: boolean;
  /** The open index; throws HttpError 503 while a followed index has no commit yet. */
  index(): Index;
  /** Bytes of write-ahead log on disk (0 when unknown, e.g. a memory store). */
  walBytes(): Promise<number>;
  /** Stops timers and watchers; a writable index commits what is pending and releases its lock. */
  close(): Promise<void>;
}

async function walBytesIn(path: string | null): Promise<number> {
  if (path === null) return 0;
  let total = 0;
  for (const name of await readdir(path).catch(() => [])) {
    if (!name.startsWith('wal-')) continue;
    total += await stat(join(path, name)).then((s) => s.size, () => 0);
  }
  return total;
}

/** A writable index refreshed every `refreshIntervalMs` by this layer, so refreshes can be counted. */
export class WritableIndex implements ServedIndex {
  readonly writable = true;
  private readonly timer: NodeJS.Timeout | null;

  /**
   * @param path the index's local directory, or null (memory store)
   * @param refreshIntervalMs 0 disables the timer (refresh only on demand)
   */
  constructor(
    readonly name: string,
    private readonly opened: Index,
    private readonly path: string | null,
    refreshIntervalMs: number,
    private readonly events: IndexEvents,
    private readonly log: Logger,
  ) {
    this.timer = refreshIntervalMs > 0 ? setInterval(() => { void this.tick(); }, refreshIntervalMs) : null;
    this.timer?.unref();
  }

  index(): Index {
    return this.opened;
  }

  /** Makes buffered documents searchable now. */
  async refresh(): Promise<void> {
    await this.opened.refresh();
  }

  walBytes(): Promise<number> {
    return walBytesIn(this.path);
  }

  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    await this.opened.close();
  }

  private async tick(): Promise<void> {
    try {
      if (this.opened.stats().bufferedDocs > 0) await this.refresh();
    } catch (e) {
      this.log.error(`refresh of index ${this.name} failed: ${(e as Error).message}`);
    }
  }
}

/** A read-only index following the commits another process writes into `path`. */
export class FollowedIndex implements ServedIndex {
  readonly writable = false;
  private opened: Index | null = null;
  private watcher: FSWatcher | null = null;
  private readonly poll: NodeJS.Timeout;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(
    readonly name: string,
    private readonly dir: Directory,
    private readonly path: string | null,
    pollIntervalMs: number,
    private readonly events: IndexEvents,
    private readonly log: Logger,
  ) {
    this.poll = setInterval(() => { void this.check(); }, pollIntervalMs);
    this.poll.unref();
  }

  /** Opens the newest commit if there is one and starts watching; an index without a commit yet is served once one appears. */
  async start(): Promise<void> {
    await this.check();
    if (this.opened === null) this.log.warn(`index ${this.name} has no commit yet in ${this.dir.describe()}; it is served once one appears`);
    if (this.path !== null) {
      try {
        this.watcher = watch(this.path, () => { void this.check(); });
        this.watcher.on('error', (e) => { this.log.warn(`watching ${this.path ?? ''} failed (${e.message}); polling only`); });
        this.watcher.unref();
      } catch (e) {
        this.log.warn(`cannot watch ${this.path} (${(e as Error).message}); polling only`);
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

  private shouldRunAgain(): boolean {
    return this.again && !this.closed;
  }

  private async reloadOnce(): Promise<void> {
    if (this.closed) return;
    try {
      if (this.opened === null) {
        this.opened = await Index.open(this.dir, { readOnly: true });
        this.log.info(`serving index ${this.name} at seq=${this.opened.stats().seq}`);
        this.events.reloaded(this.name, this.opened.stats().seq);
        return;
      }
      const before = this.opened.stats().seq;
      const seq = await this.opened.reload();
      if (seq !== before) {
        this.log.info(`index ${this.name}: now serving commit seq=${seq}`);
        this.events.reloaded(this.name, seq);
      }
    } catch (e) {
      // A commit being written (or none yet) is retried at the next event or poll.
      this.log.debug(`index ${this.name}: reload deferred (${(e as Error).message})`);
    }
  }
}
