/**
 * The indexes a server serves, each behind one small interface: a writable index (this process
 * holds its write lock; the engine refreshes it) or a followed one (`followed-index.ts`).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { walGenerationOf } from '../engine/index.js';
import type { Index } from '../engine/index.js';

/** What a served index reports to the server's metrics (commits and refreshes are read from the engine). */
export interface IndexEvents {
  reloaded(index: string, seq: number): void;
  /** A poll for new commits failed (followed indexes). */
  pollFailed(index: string): void;
}

/** Bytes a remote store has exchanged (S3); absent for local stores. */
export interface StorageTransfers {
  readonly bytesDownloaded: number;
  readonly bytesUploaded: number;
  readonly requests: number;
}

/** How a served index is doing, for `/_health`. */
export interface IndexHealth {
  readonly status: 'ok' | 'degraded';
  /** Seq of the served commit (null before the first one). */
  readonly seq: number | null;
  /** Seconds since the served commit was made (null before the first one). */
  readonly commitAgeSeconds: number | null;
  /** Polls that failed in a row, and the last failure's message (followed indexes). */
  readonly consecutiveFailures?: number;
  readonly lastError?: string;
  /** Why writes answer 503 `index_unavailable` (writable indexes whose writer failed). */
  readonly reason?: string;
  /** Since when, and how many reopen attempts failed so far. */
  readonly since?: string;
  readonly reopenAttempts?: number;
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
  /** Health for `/_health`. */
  health(): IndexHealth;
  /** Bytes exchanged with a remote store, if the index is on one. */
  transfers(): StorageTransfers | undefined;
}

/** Seconds since an ISO timestamp. */
export function ageSeconds(iso: string): number {
  return Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
}

async function walBytesIn(path: string | null): Promise<number> {
  if (path === null) return 0;
  let total = 0;
  for (const name of await readdir(path).catch(() => [])) {
    if (walGenerationOf(name) === undefined) continue;
    total += await stat(join(path, name)).then((s) => s.size, () => 0);
  }
  return total;
}

/**
 * An index this process writes. Its refresh timer belongs to the engine (the index's near-real-time
 * reader, opened with the server's refresh interval), so there is one timer per index.
 */
export class WritableIndex implements ServedIndex {
  readonly writable = true;

  /** @param path the index's local directory, or null (memory store) */
  constructor(
    readonly name: string,
    private readonly opened: Index,
    private readonly path: string | null,
    private readonly readTransfers?: () => StorageTransfers,
  ) {}

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

  transfers(): StorageTransfers | undefined {
    return this.readTransfers?.();
  }

  health(): IndexHealth {
    const stats = this.opened.stats();
    const commit = { seq: stats.seq, commitAgeSeconds: ageSeconds(stats.committedAt) };
    const failure = this.opened.writerFailure();
    if (failure === null) return { status: 'ok', ...commit };
    return {
      status: 'degraded',
      ...commit,
      reason: failure.reason,
      since: failure.since,
      reopenAttempts: failure.reopenAttempts,
      ...(failure.lastReopenError === undefined ? {} : { lastError: failure.lastReopenError }),
    };
  }

  async close(): Promise<void> {
    await this.opened.close();
  }
}
