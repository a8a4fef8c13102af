/**
 * The Index facade: the engine's public face. Opens or creates an index in a Directory, takes its
 * write lock, replays the write-ahead log, and offers upsert/delete, refresh, commit, search and
 * verification. A read-only index (for `yarrow search`) takes no lock and follows new commits.
 */
import { hostname } from 'node:os';
import { getAnalyzer } from './analysis/analyzers.js';
import { verifyChecksum } from './codec/file-format.js';
import { IndexWriter, defaultWriterOptions, liveDocsGeneration, writeManifest } from './commit/index-writer.js';
import { TimeSlicer } from './event-loop.js';
import type { CommitResult, PreparedDocument, WriterOptions } from './commit/index-writer.js';
import { FORMAT_VERSION, MANIFEST_FILE, decodeManifest, manifestFiles } from './commit/manifest.js';
import type { Manifest } from './commit/manifest.js';
import { WriteAheadLog, walFile, walGenerationOf, walUpsertJson } from './commit/write-ahead-log.js';
import { replayWal } from './commit/wal-replay.js';
import type { Directory } from './directory.js';
import { IndexFiles, LOCK_FILE, fileKindOf, isDataFile } from './index-files.js';
import type { IndexFileKind } from './index-files.js';
import { ErrorCode, YarrowError } from './errors.js';
import { silentLogger } from './logger.js';
import type { Logger } from './logger.js';
import { validateDocument } from './schema/document.js';
import type { DocumentLocation } from './schema/document.js';
import { mappingFromJson, mappingToJson, parseMapping } from './schema/mapping.js';
import type { Mapping } from './schema/mapping.js';
import { readVerified, SegmentLoad, SegmentReader } from './segment/segment-reader.js';
import { Snapshot } from './segment/snapshot.js';
import { prepareSearch, runSearch } from './search/search-request.js';
import type { SearchRequest, SearchResponse } from './search/search-request.js';

export type { SearchRequest, SearchResponse, SearchHit } from './search/search-request.js';

export { LOCK_FILE };

/** How to open an index. */
export interface IndexOpenOptions {
  /** Index name, recorded in the manifest (default "default"). */
  readonly name?: string;
  /**
   * The mapping: the `fields` object of the config's schema entry (`{ fields: {...} }`), or a
   * parsed Mapping. Required to create an index; when the index exists it must be the same.
   */
  readonly mapping?: unknown;
  /** Make buffered documents searchable every this many ms (default 1000; 0 = only on demand). */
  readonly refreshIntervalMs?: number;
  /** Open for searching only: no lock, no writes, follows new commits with {@link Index.reload}. */
  readonly readOnly?: boolean;
  /**
   * `false` opens a write-only index (bulk loaders, the HTTP indexer): segments keep only their
   * `_id` terms in memory, so memory stays flat whatever the index size, and `search` throws.
   * Default true.
   */
  readonly searchable?: boolean;
  readonly logger?: Logger;
  readonly writer?: Partial<WriterOptions>;
}

/** Figures about an index. */
export interface IndexStats {
  readonly name: string;
  readonly docs: number;
  readonly segments: number;
  readonly seq: number;
  /** When the last commit was made (ISO timestamp from its manifest). */
  readonly committedAt: string;
  readonly sizeBytes: number;
  readonly bufferedDocs: number;
  /** Bytes of write-ahead log not yet covered by a commit (0 for a read-only index). */
  readonly walBytes: number;
  /** Commits and refreshes this process made since it opened the index (automatic ones too). */
  readonly commits: number;
  readonly refreshes: number;
}

/** Where a batch of documents came from, for error messages. */
export interface BatchSource {
  readonly source?: string;
  /** Line number of the first document (1-based); documents are then numbered by line. */
  readonly firstLine?: number;
  /** Per-document locations, when the caller knows them exactly. */
  readonly locations?: readonly DocumentLocation[];
}

/** A named index in a Directory. */
export class Index {
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(
    private readonly dir: Directory,
    readonly name: string,
    readonly mapping: Mapping,
    private readonly writer: IndexWriter | null,
    private readonlySnapshot: Snapshot | null,
    private manifest: Manifest,
    private readonly log: Logger,
  ) {}

  /** Opens the index in `dir`, creating it (with `options.mapping`) when it has no manifest. */
  static async open(dir: Directory, options: IndexOpenOptions = {}): Promise<Index> {
    const log = options.logger ?? silentLogger;
    if (options.readOnly === true) return Index.openReadOnly(dir, log);
    const lock = await dir.obtainLock(LOCK_FILE, ownerInfo(), (stale) => {
      log.warn(`taking over a stale lock of ${dir.describe()}: its holder pid ${stale.pid} on ${stale.hostname} (since ${stale.since}) is gone`);
    });
    let createdWal: string | null = null;
    try {
      let manifest: Manifest;
      let mapping: Mapping;
      if (await dir.exists(MANIFEST_FILE)) {
        manifest = decodeManifest(await dir.readFile(MANIFEST_FILE));
        mapping = mappingFromJson(manifest.mapping);
        if (options.mapping !== undefined) checkSameMapping(mapping, toMapping(options.mapping, manifest.name), manifest.name);
      } else {
        await refuseUnaccountedFiles(dir);
        if (options.mapping === undefined) {
          throw new YarrowError(ErrorCode.invalidMapping, `${dir.describe()} holds no index and no mapping was given to create one`);
        }
        const name = options.name ?? 'default';
        mapping = toMapping(options.mapping, name);
        manifest = {
          formatVersion: FORMAT_VERSION,
          name,
          mapping: mappingToJson(mapping),
          seq: 0,
          committedAt: new Date().toISOString(),
          segments: [],
          nextSegmentId: 0,
          walGeneration: 0,
          checkpoints: {},
        };
        await writeManifest(dir, manifest);
        log.info(`created index ${name} in ${dir.describe()}`);
      }
      await removeOrphans(dir, manifest, log);
      const writerOptions: WriterOptions = {
        ...defaultWriterOptions,
        ...options.writer,
        ...(options.searchable === false ? { segmentLoad: SegmentLoad.ids } : {}),
      };
      const segments = await Promise.all(
        manifest.segments.map(async (info) => {
          const reader = await SegmentReader.open(dir, info, undefined, writerOptions.segmentLoad);
          const liveDocs = await reader.readLiveDocs(dir);
          return { info, reader, liveDocs, liveDirty: false, durable: true, delGen: liveDocsGeneration(info), merging: false };
        }),
      );
      const replayGen = (await dir.list()).map(walGenerationOf).filter((g): g is number => g !== undefined);
      const walGen = Math.max(manifest.walGeneration, ...replayGen.map((g) => g + 1));
      const wal = await WriteAheadLog.open(dir, walGen);
      const writer = new IndexWriter(dir, mapping, getAnalyzer, lock, log, writerOptions, segments, manifest, wal);
      createdWal = walFile(walGen);
      const replay = await replayWal(dir, manifest.walGeneration, (ops) => {
        for (const op of ops) {
          if (op.kind === 'upsert') writer.applyUpsert(op.doc, op.id, op.storedJson);
          else if (op.kind === 'raw') writer.applyUpsert(validateDocument(mapping, op.doc), String(op.doc._id));
          else writer.applyDelete(op.id);
        }
      });
      if (replay.tornTail !== undefined) {
        log.warn(`write-ahead log ${replay.tornTail.file} ends with a torn record at byte ${replay.tornTail.offset} (never acknowledged); ignoring it`);
      }
      if (replay.ops > 0) {
        log.info(`replayed ${replay.ops} operations from the write-ahead log`);
        await writer.commit();
      } else {
        // Earlier generations hold nothing valid (sessions that never wrote, or a torn record).
        for (const gen of replayGen) if (gen !== walGen) await dir.delete(walFile(gen));
      }
      const index = new Index(dir, manifest.name, mapping, writer, null, writer.lastCommit, log);
      index.startRefreshTimer(options.refreshIntervalMs ?? 1000);
      return index;
    } catch (e) {
      // A refused replay leaves the location as it found it: the new, empty generation goes.
      if (createdWal !== null) await dir.delete(createdWal).catch(() => undefined);
      await lock.release();
      throw e;
    }
  }

  private static async openReadOnly(dir: Directory, log: Logger): Promise<Index> {
    const manifest = decodeManifest(await dir.readFile(MANIFEST_FILE));
    const mapping = mappingFromJson(manifest.mapping);
    const snapshot = await openSnapshot(dir, manifest, 1);
    return new Index(dir, manifest.name, mapping, null, snapshot, manifest, log);
  }

  /**
   * Validates and indexes documents (upsert by `_id`; a missing `_id` gets a generated one). All or
   * nothing: one invalid document rejects the whole batch with an error naming it, and the batch
   * is one write-ahead log record, so a crash keeps all of it or none. Resolves once the batch is
   * durable; searchable after the next refresh. Large batches yield to the event loop as they go.
   */
  async upsert(docs: readonly unknown[], source: BatchSource = {}): Promise<{ docs: number }> {
    const writer = this.requireWriter();
    const batch: PreparedDocument[] = [];
    const slicer = new TimeSlicer();
    for (let i = 0; i < docs.length; i++) {
      if (slicer.due()) await slicer.yield();
      const location = source.locations?.[i] ?? locate(source, i);
      let doc = validateDocument(this.mapping, docs[i], location);
      let id = doc.id;
      if (id === undefined) {
        id = globalThis.crypto.randomUUID();
        doc = { ...doc, stored: { _id: id, ...doc.stored } };
      }
      const storedJson = JSON.stringify(doc.stored);
      // The log holds the validated form, so a replay never validates again.
      batch.push({ doc, id, storedJson, walJson: walUpsertJson(doc, id, storedJson) });
    }
    await writer.write(batch);
    return { docs: batch.length };
  }

  /** Deletes documents by id (durable once resolved, visible after the next refresh). */
  async delete(ids: readonly string[]): Promise<void> {
    await this.requireWriter().write([], ids);
  }

  /** Makes everything written so far searchable. */
  async refresh(): Promise<void> {
    await this.requireWriter().refresh();
  }

  /** Commits durably: segments, live docs and a new manifest. */
  async commit(): Promise<CommitResult> {
    const result = await this.requireWriter().commit();
    this.manifest = this.requireWriter().lastCommit;
    return result;
  }

  /**
   * Discards every write since the last commit (buffered, refreshed or merged, and logged), e.g.
   * when a source file turns out to be bad half-way. Durable once resolved.
   */
  async rollback(): Promise<CommitResult> {
    const result = await this.requireWriter().rollback();
    this.manifest = this.requireWriter().lastCommit;
    return result;
  }

  /** Records a source checkpoint to be stored by the next commit. */
  setCheckpoint(source: string, position: unknown): void {
    this.requireWriter().setCheckpoint(source, position);
  }

  /** Checkpoints stored by the last commit. */
  get checkpoints(): Readonly<Record<string, unknown>> {
    return (this.writer?.lastCommit ?? this.manifest).checkpoints;
  }

  /** Runs a search request on the latest snapshot. */
  search(request: SearchRequest = {}): SearchResponse {
    const started = performance.now();
    const prepared = prepareSearch(request, this.mapping);
    if (this.writer?.searchable === false) throw new YarrowError(ErrorCode.indexClosed, `index ${this.name} is open write-only (searchable: false)`);
    const snapshot = this.acquireSnapshot();
    try {
      return runSearch(snapshot, prepared, started);
    } finally {
      snapshot.release();
    }
  }

  /** Figures about the index. */
  stats(): IndexStats {
    const snapshot = this.acquireSnapshot();
    try {
      let sizeBytes = 0;
      for (const s of this.currentManifest().segments) for (const f of s.files) sizeBytes += f.size;
      return {
        name: this.name,
        docs: snapshot.liveCount,
        segments: snapshot.segments.length,
        seq: this.currentManifest().seq,
        committedAt: this.currentManifest().committedAt,
        sizeBytes,
        bufferedDocs: this.writer?.bufferedDocs ?? 0,
        walBytes: this.writer?.walBytes ?? 0,
        commits: this.writer?.activity.commits ?? 0,
        refreshes: this.writer?.activity.refreshes ?? 0,
      };
    } finally {
      snapshot.release();
    }
  }

  /** Re-reads every file of the last commit and checks sizes and checksums; throws on damage. */
  async verify(): Promise<{ files: number; bytes: number }> {
    const manifest = this.currentManifest();
    let bytes = 0;
    let files = 0;
    for (const seg of manifest.segments) {
      for (const f of [...seg.files, ...(seg.liveDocs === null ? [] : [seg.liveDocs])]) {
        const data = await readVerified(this.dir, f);
        verifyChecksum(data, f.name);
        bytes += data.length;
        files++;
      }
    }
    return { files, bytes };
  }

  /** Read-only indexes: switches to the newest commit if there is one; returns its seq. */
  async reload(): Promise<number> {
    if (this.writer !== null) return this.writer.lastCommit.seq;
    const manifest = decodeManifest(await this.dir.readFile(MANIFEST_FILE));
    if (manifest.seq !== this.manifest.seq) {
      const next = await openSnapshot(this.dir, manifest, manifest.seq, this.readonlySnapshot);
      this.readonlySnapshot?.release();
      this.readonlySnapshot = next;
      this.manifest = manifest;
    }
    return this.manifest.seq;
  }

  /** Stops the refresh timer, commits what is pending (writers) and releases the lock. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer !== null) clearInterval(this.timer);
    if (this.writer !== null) await this.writer.close();
    this.readonlySnapshot?.release();
  }

  private acquireSnapshot(): Snapshot {
    if (this.closed) throw new YarrowError(ErrorCode.indexClosed, `index ${this.name} is closed`);
    return this.writer !== null ? this.writer.acquireSnapshot() : this.readonlySnapshot!.acquire();
  }

  private currentManifest(): Manifest {
    return this.writer?.lastCommit ?? this.manifest;
  }

  private requireWriter(): IndexWriter {
    if (this.closed) throw new YarrowError(ErrorCode.indexClosed, `index ${this.name} is closed`);
    if (this.writer === null) throw new YarrowError(ErrorCode.indexClosed, `index ${this.name} is open read-only`);
    return this.writer;
  }

  private startRefreshTimer(ms: number): void {
    if (ms <= 0) return;
    this.timer = setInterval(() => {
      this.writer?.refresh().catch((e: unknown) => { this.log.error(`refresh failed: ${(e as Error).message}`); });
    }, ms);
    this.timer.unref();
  }
}

function toMapping(raw: unknown, name: string): Mapping {
  if (typeof raw === 'object' && raw !== null && 'field' in raw && typeof (raw as Mapping).field === 'function') return raw as Mapping;
  return parseMapping(raw, `schema.${name}`);
}

function checkSameMapping(existing: Mapping, given: Mapping, name: string): void {
  if (JSON.stringify(mappingToJson(existing)) !== JSON.stringify(mappingToJson(given))) {
    throw new YarrowError(
      ErrorCode.invalidMapping,
      `the mapping of index ${name} differs from the one it was created with; re-index into a new index to change it`,
    );
  }
}

/**
 * A location without a manifest is new only when it holds nothing but lock files (and a manifest
 * temp file of a creation that crashed): segment files or logs without `index.json` are an index
 * whose manifest is lost, and creating a fresh one would orphan (and then delete) all of them.
 */
async function refuseUnaccountedFiles(dir: Directory): Promise<void> {
  const scratch: readonly IndexFileKind[] = [IndexFiles.lock, IndexFiles.lockClaim, IndexFiles.lockTemp, IndexFiles.manifestTemp];
  const present = (await dir.list()).filter((name) => !scratch.includes(fileKindOf(name) as IndexFileKind)).sort();
  if (present.length === 0) return;
  const shown = present.slice(0, 5).join(', ') + (present.length > 5 ? `, … (${present.length} files)` : '');
  throw new YarrowError(
    ErrorCode.corruptIndex,
    `${dir.describe()} has no ${MANIFEST_FILE} but is not empty (${shown}): refusing to create a new index over it; restore ${MANIFEST_FILE} or use an empty location`,
    { source: dir.describe(), file: MANIFEST_FILE, files: present },
  );
}

/**
 * Deletes files this engine wrote and no commit references: leftovers of a crash between flush and
 * commit (segment files, live docs, a manifest temp file) and log generations the commit covers.
 * Names the registry does not know are never touched. Data files are logged at info by name.
 */
async function removeOrphans(dir: Directory, manifest: Manifest, log: Logger): Promise<void> {
  const keep = new Set(manifestFiles(manifest));
  for (const name of await dir.list()) {
    if (keep.has(name)) continue;
    const kind = fileKindOf(name);
    if (kind === undefined) continue;
    const gen = walGenerationOf(name);
    const garbage = kind === IndexFiles.manifestTemp || kind.lifetime === 'immutable' || (gen !== undefined && gen < manifest.walGeneration);
    if (!garbage) continue;
    if (isDataFile(name)) log.info(`removing ${name}: no commit references it (seq=${manifest.seq})`, { file: name, seq: manifest.seq });
    else log.debug(`removing unreferenced file ${name}`);
    await dir.delete(name);
  }
}

/**
 * Opens the segments of a commit. Segment files never change once written, so a segment that
 * `previous` already has keeps its reader and only its live docs are read again: following a
 * commit costs the new segments, not the whole index.
 */
async function openSnapshot(dir: Directory, manifest: Manifest, generation: number, previous: Snapshot | null = null): Promise<Snapshot> {
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

function locate(source: BatchSource, i: number): DocumentLocation {
  const loc: { source?: string; line?: number; ordinal?: number } = {};
  if (source.source !== undefined) loc.source = source.source;
  if (source.firstLine !== undefined) loc.line = source.firstLine + i;
  else loc.ordinal = i + 1;
  return loc;
}

function ownerInfo(): { pid: number; hostname: string; since: string } {
  return { pid: process.pid, hostname: hostname(), since: new Date().toISOString() };
}
