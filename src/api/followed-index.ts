/**
 * A served index that follows the commits another process publishes: the engine's
 * {@link CommitFollower} polls storage; on a local store this adapter also watches the index
 * directory and nudges the follower, for promptness (watch events can be lost or unsupported, e.g.
 * on network file systems, so polling stays the source of truth).
 */
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { CommitFollower } from '../engine/index.js';
import type { Directory, Embedder, Index, Logger } from '../engine/index.js';
import { HttpError, HttpErrorType } from './http-status.js';
import type { IndexEvents, IndexHealth, ServedIndex, StorageTransfers } from './served-index.js';

/** How a followed index finds its commits. */
export interface FollowOptions {
  /** The index's local directory to watch, or null (object storage: polling only). */
  readonly watchPath: string | null;
  readonly pollIntervalMs: number;
  /** Bytes exchanged with a remote store. */
  readonly transfers?: () => StorageTransfers;
  /** Embedding models for `semantic` queries. */
  readonly embedders?: ReadonlyMap<string, Embedder>;
}

/** A read-only index following the commits another process writes. */
export class FollowedIndex implements ServedIndex {
  readonly writable = false;
  private readonly follower: CommitFollower;
  private watcher: FSWatcher | null = null;

  constructor(
    readonly name: string,
    dir: Directory,
    private readonly options: FollowOptions,
    events: IndexEvents,
    private readonly log: Logger,
  ) {
    const transfers = options.transfers;
    this.follower = new CommitFollower(name, dir, {
      pollIntervalMs: options.pollIntervalMs,
      ...(options.embedders === undefined ? {} : { embedders: options.embedders }),
      ...(transfers === undefined ? {} : { bytesDownloaded: () => transfers().bytesDownloaded }),
      onReload: (seq) => { events.reloaded(name, seq); },
      onPollFailed: () => { events.pollFailed(name); },
    }, log);
  }

  /** Opens the newest commit if there is one and starts watching. */
  async start(): Promise<void> {
    await this.follower.start();
    const path = this.options.watchPath;
    if (path !== null) {
      try {
        this.watcher = watch(path, () => { void this.follower.check(); });
        this.watcher.on('error', (e) => { this.log.warn(`watching ${path} failed (${e.message}); polling only`); });
        this.watcher.unref();
      } catch (e) {
        this.log.warn(`cannot watch ${path} (${(e as Error).message}); polling only`);
      }
    }
  }

  index(): Index {
    const opened = this.follower.index();
    if (opened === null) throw new HttpError(HttpErrorType.unavailable, `index ${this.name} has no commit yet`, { index: this.name });
    return opened;
  }

  walBytes(): Promise<number> {
    return Promise.resolve(0);
  }

  transfers(): StorageTransfers | undefined {
    return this.options.transfers?.();
  }

  health(): IndexHealth {
    return this.follower.health();
  }

  /** Switches to the newest commit; resolves once the check that covers this call has finished. */
  check(): Promise<void> {
    return this.follower.check();
  }

  async close(): Promise<void> {
    this.watcher?.close();
    await this.follower.close();
  }
}
