/**
 * The read side of an index: where searches get their snapshot. Three readers, one per way a
 * process sees an index, so that no method asks "which mode am I in":
 *
 * - {@link NearRealTimeReader}: the snapshots a writer in this process publishes; it owns the one
 *   refresh timer that makes buffered documents searchable.
 * - {@link WriteOnlyReader}: a writer whose segments hold only ids (bulk loaders): figures, no search.
 * - {@link CommitReader}: the commits another process publishes in storage; `reload` switches to the
 *   newest one (`commit-follower.ts` polls it).
 */
import type { Directory } from '../directory.js';
import type { IndexWriter } from '../commit/index-writer.js';
import { decodeManifest } from '../commit/manifest.js';
import type { Manifest } from '../commit/manifest.js';
import { ErrorCode, YarrowError } from '../errors.js';
import { MANIFEST_FILE } from '../index-files.js';
import type { Logger } from '../logger.js';
import { runSearch } from '../search/search-request.js';
import type { PreparedSearch, SearchResponse } from '../search/search-request.js';
import { SegmentReader } from '../segment/segment-reader.js';
import { Snapshot } from '../segment/snapshot.js';

/** Where searches and figures of an index come from. */
export interface IndexReader {
  /** The commit the reader's snapshots build on (a writer's last commit, or the followed one). */
  readonly commit: Manifest;
  /** The latest snapshot, acquired for the caller (release it when done). */
  acquireSnapshot(): Snapshot;
  /** Runs a prepared search on the latest snapshot. */
  search(prepared: PreparedSearch, started: number): SearchResponse;
  /** Switches to the newest commit if the reader follows commits; returns the served seq. */
  reload(): Promise<number>;
  /** Stops timers and drops the reader's snapshot. */
  close(): void;
}

/** Snapshots of a writer in this process, refreshed every `refreshIntervalMs` (0: on demand only). */
export class NearRealTimeReader implements IndexReader {
  private readonly timer: NodeJS.Timeout | null;

  constructor(
    protected readonly writer: IndexWriter,
    refreshIntervalMs: number,
    log: Logger,
  ) {
    this.timer = refreshIntervalMs > 0
      ? setInterval(() => {
        // A failed writer refuses refreshes until it is reopened (by a new reader).
        if (!writer.hasUnrefreshed || writer.failedWith !== null) return;
        writer.refresh().catch((e: unknown) => { log.error(`refresh failed: ${(e as Error).message}`); });
      }, refreshIntervalMs)
      : null;
    this.timer?.unref();
  }

  get commit(): Manifest {
    return this.writer.lastCommit;
  }

  acquireSnapshot(): Snapshot {
    return this.writer.acquireSnapshot();
  }

  search(prepared: PreparedSearch, started: number): SearchResponse {
    return searchSnapshot(this.acquireSnapshot(), prepared, started);
  }

  reload(): Promise<number> {
    return Promise.resolve(this.writer.lastCommit.seq);
  }

  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
  }
}

/** A writer's id-only snapshots: they count documents but cannot be searched. */
export class WriteOnlyReader extends NearRealTimeReader {
  constructor(writer: IndexWriter, private readonly name: string, log: Logger) {
    // Nothing is ever searched, so nothing needs refreshing on a timer.
    super(writer, 0, log);
  }

  override search(): SearchResponse {
    throw new YarrowError(ErrorCode.indexClosed, `index ${this.name} is open write-only (searchable: false)`);
  }
}

/** The commits another process writes, read from storage; see {@link CommitReader.reload}. */
export class CommitReader implements IndexReader {
  private constructor(
    private readonly dir: Directory,
    private manifest: Manifest,
    private snapshot: Snapshot,
  ) {}

  /** Opens the newest commit in `dir` (`file_not_found` when there is none yet). */
  static async open(dir: Directory): Promise<CommitReader> {
    const manifest = decodeManifest(await dir.readFile(MANIFEST_FILE));
    return new CommitReader(dir, manifest, await openCommitSnapshot(dir, manifest, 1));
  }

  get commit(): Manifest {
    return this.manifest;
  }

  acquireSnapshot(): Snapshot {
    return this.snapshot.acquire();
  }

  search(prepared: PreparedSearch, started: number): SearchResponse {
    return searchSnapshot(this.acquireSnapshot(), prepared, started);
  }

  /** Switches to the newest commit if there is one; returns its seq. */
  async reload(): Promise<number> {
    const manifest = decodeManifest(await this.dir.readFile(MANIFEST_FILE));
    if (manifest.seq !== this.manifest.seq) {
      const next = await openCommitSnapshot(this.dir, manifest, manifest.seq, this.snapshot);
      this.snapshot.release();
      this.snapshot = next;
      this.manifest = manifest;
    }
    return this.manifest.seq;
  }

  close(): void {
    this.snapshot.release();
  }
}

/** Runs one search on an acquired snapshot and releases it, whatever the search throws. */
function searchSnapshot(snapshot: Snapshot, prepared: PreparedSearch, started: number): SearchResponse {
  try {
    return runSearch(snapshot, prepared, started);
  } finally {
    snapshot.release();
  }
}

/**
 * Opens the segments of a commit. Segment files never change once written, so a segment that
 * `previous` already has keeps its reader and only its live docs are read again: following a
 * commit costs the new segments, not the whole index.
 */
export async function openCommitSnapshot(dir: Directory, manifest: Manifest, generation: number, previous: Snapshot | null = null): Promise<Snapshot> {
  const known = new Map((previous?.segments ?? []).map((s) => [s.reader.name, s.reader]));
  const segments = await Promise.all(
    manifest.segments.map(async (info) => {
      const kept = known.get(info.name);
      const reader = kept === undefined ? await SegmentReader.open(dir, info) : kept.withInfo(info);
      return { reader, liveDocs: await reader.readLiveDocs(dir) };
    }),
  );
  return new Snapshot(generation, segments, () => undefined);
}
