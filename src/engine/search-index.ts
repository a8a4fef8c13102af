/**
 * The Index: the engine's one entry point. `Index.open(dir, options)` composes an index from a
 * write side and a read side and hands both out (`writer()`, `reader()`), so no method asks which
 * kind of index it is:
 *
 * - write side: recovery (`commit/recovery.ts`: lock, manifest, orphans, WAL replay) yields the
 *   {@link IndexWriter}, fronted by a {@link DocumentWriter} that validates documents once; a
 *   read-only index gets a {@link ReadOnlyWriter} that refuses writes;
 * - read side (`reader/index-reader.ts`): a near-real-time reader over this process's writer (it
 *   owns the one refresh timer), a write-only reader (ids only, no search), or a commit reader that
 *   follows what another process commits (`reader/commit-follower.ts` polls it).
 */
import { verifyChecksum } from './codec/file-format.js';
import { DocumentWriter, ReadOnlyWriter } from './commit/document-writer.js';
import type { BatchSource, DocumentWrites } from './commit/document-writer.js';
import type { BulkLoad, BulkLoadOptions } from './commit/bulk-load.js';
import type { Manifest } from './commit/manifest.js';
import type { IndexWriter } from './commit/index-writer.js';
import { recover } from './commit/recovery.js';
import type { RecoveryOptions } from './commit/recovery.js';
import { WriterReopener, defaultReopenBackoff } from './commit/writer-reopener.js';
import type { ReopenBackoff, WriterFailureStatus } from './commit/writer-reopener.js';
import type { CommitResult, WriterOptions } from './commit/writer-options.js';
import { defaultWriterOptions } from './commit/writer-options.js';
import type { Directory } from './directory.js';
import type { Embedder } from './embedder.js';
import { ErrorCode, YarrowError } from './errors.js';
import { LOCK_FILE } from './index-files.js';
import { silentLogger } from './logger.js';
import type { Logger } from './logger.js';
import { CommitReader, NearRealTimeReader, WriteOnlyReader } from './reader/index-reader.js';
import type { IndexReader } from './reader/index-reader.js';
import { validateDocument } from './schema/document.js';
import type { DocumentLocation, ValidDocument } from './schema/document.js';
import { mappingFromJson } from './schema/mapping.js';
import type { Mapping } from './schema/mapping.js';
import { parseFilters } from './search/filter.js';
import { matchingIds } from './search/matching-ids.js';
import { invalid } from './search/query.js';
import { prepareSearch } from './search/search-request.js';
import { embedSemanticQueries } from './search/semantic-query.js';
import type { SearchRequest, SearchResponse } from './search/search-request.js';
import { segmentBytes } from './segment/segment-info.js';
import { readVerified, SegmentLoad, SegmentReader } from './segment/segment-reader.js';

import { prepareSuggest, suggest } from './suggest/index.js';
import type { SuggestRequest, SuggestResponse } from './suggest/index.js';

export type { SearchRequest, SearchResponse, SearchHit } from './search/search-request.js';
export type { BatchSource } from './commit/document-writer.js';
export type { ReopenBackoff, WriterFailureStatus } from './commit/writer-reopener.js';
export type { SuggestRequest, SuggestResponse, Suggestion } from './suggest/index.js';
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
  /** Delays between attempts to reopen a writer an I/O failure stopped (`commit/writer-reopener.ts`). */
  readonly reopenBackoff?: ReopenBackoff;
  /**
   * The process's embedding models by `inference.embedding` name: they embed the text of semantic
   * fields before the write-ahead log, and the text of `semantic` queries. Default: none (an index
   * without model-embedded fields needs none).
   */
  readonly embedders?: ReadonlyMap<string, Embedder>;
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

/** One segment of the served snapshot, for `/v1/index/<index>/stats`. */
export interface SegmentFigures {
  readonly name: string;
  /** Position of the segment's first doc among all segments of the snapshot. */
  readonly docBase: number;
  readonly maxDoc: number;
  readonly liveDocs: number;
  readonly files: readonly string[];
  /** Full-text fields with postings in the segment. */
  readonly fields: readonly string[];
  readonly sizeBytes: number;
}

/** A named index in a Directory: a write side and a read side; see the module comment. */
export class Index {
  private closed = false;
  /** Brings the write side back after an I/O failure (writable indexes only). */
  private reopener: WriterReopener | null = null;

  private constructor(
    private readonly dir: Directory,
    readonly name: string,
    readonly mapping: Mapping,
    private writes: DocumentWrites,
    private reads: IndexReader,
    private readonly embedders: ReadonlyMap<string, Embedder>,
  ) {}

  /**
   * Opens the index in `dir`. For writing (the default) it takes the write lock and recovers,
   * creating the index (with `options.mapping`) when the location is empty; `readOnly` opens the
   * newest commit for searching, without a lock.
   */
  static async open(dir: Directory, options: IndexOpenOptions = {}): Promise<Index> {
    const log = options.logger ?? silentLogger;
    const embedders = options.embedders ?? new Map<string, Embedder>();
    if (options.readOnly === true) {
      const reader = await CommitReader.open(dir);
      return new Index(dir, reader.commit.name, mappingFromJson(reader.commit.mapping), new ReadOnlyWriter(reader.commit.name, dir), reader, embedders);
    }
    const searchable = options.searchable !== false;
    const writerOptions: WriterOptions = {
      ...defaultWriterOptions,
      ...options.writer,
      ...(searchable ? {} : { segmentLoad: SegmentLoad.ids }),
    };
    const recovery: RecoveryOptions = {
      logger: log,
      writer: writerOptions,
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(options.mapping === undefined ? {} : { mapping: options.mapping }),
    };
    const { writer, mapping } = await recover(dir, recovery);
    const name = writer.lastCommit.name;
    const readerOf = (w: IndexWriter): IndexReader => (searchable ? new NearRealTimeReader(w, options.refreshIntervalMs ?? 1000, log) : new WriteOnlyReader(w, name, log));
    const index = new Index(dir, name, mapping, new DocumentWriter(writer, mapping, embedders), readerOf(writer), embedders);
    // A reopened writer replaces both sides at once; searches switch from the failed writer's last
    // snapshot to the reopened one's.
    index.reopener = new WriterReopener(dir, { ...recovery, mapping }, options.reopenBackoff ?? defaultReopenBackoff, log, (reopened) => {
      const previous = index.reads;
      index.writes = new DocumentWriter(reopened, mapping, embedders);
      index.reads = readerOf(reopened);
      previous.close();
    });
    index.reopener.watch(writer);
    return index;
  }

  /**
   * Why writes are refused, while an I/O failure keeps the writer stopped and it reopens itself;
   * null while the write side works (and always for a read-only index).
   */
  writerFailure(): WriterFailureStatus | null {
    return this.reopener?.failure() ?? null;
  }

  /** The write side: upserts, deletes, commits (refuses everything on a read-only index). */
  writer(): DocumentWrites {
    this.checkOpen();
    return this.writes;
  }

  /** The read side: snapshots and searches. */
  reader(): IndexReader {
    this.checkOpen();
    return this.reads;
  }

  /** See {@link DocumentWriter.upsert}. */
  async upsert(docs: readonly unknown[], source: BatchSource = {}): Promise<{ docs: number }> {
    return this.writer().upsert(docs, source);
  }

  /**
   * Validates one document against the mapping (throws `invalid_document` naming it), for callers
   * that check documents as they arrive and hand the valid ones to `writer().upsertValidated`.
   */
  validate(raw: unknown, location?: DocumentLocation): ValidDocument {
    return validateDocument(this.mapping, raw, location);
  }

  /** Deletes documents by id (durable once resolved, visible after the next refresh). */
  async delete(ids: readonly string[]): Promise<void> {
    return this.writer().delete(ids);
  }

  /**
   * Deletes every live document that `filters` (`{ include?, exclude? }`, as in a search request)
   * accepts; resolves to how many. Writes made before the call are included (it refreshes first).
   * A request without a filter is refused: deleting everything takes an explicit filter, not an
   * omission. Durable once resolved, visible after the next refresh.
   */
  async deleteByFilter(filters: unknown): Promise<{ deleted: number }> {
    const filter = parseFilters(filters, this.mapping);
    if (filter === null) throw invalid('filters', 'a delete needs a filter (include and/or exclude); an empty request deletes nothing rather than everything', { expected: 'filters: {include, exclude}' });
    const writes = this.writer();
    await writes.refresh();
    const snapshot = this.reader().acquireSnapshot();
    // Full readers opened for the filter (a write-only index's segments hold only ids) are held
    // for it alone: their files are closed when it is done.
    const opened: SegmentReader[] = [];
    let ids: string[];
    try {
      ids = await matchingIds(snapshot, filter, async (reader) => {
        const full = (await SegmentReader.open(this.dir, reader.info)).retain();
        opened.push(full);
        return full;
      });
    } finally {
      for (const reader of opened) reader.release();
      snapshot.release();
    }
    if (ids.length > 0) await writes.delete(ids);
    return { deleted: ids.length };
  }

  /** See {@link DocumentWrites.forceMerge}. */
  async forceMerge(maxSegments: number): Promise<void> {
    return this.writer().forceMerge(maxSegments);
  }

  /** See {@link DocumentWrites.endFile}: the batches of source `file` may be replayed from now on. */
  async endFile(file: string): Promise<void> {
    return this.writer().endFile(file);
  }

  /** See {@link DocumentWrites.bulkLoad}. */
  bulkLoad(threads: number, options: BulkLoadOptions): BulkLoad | null {
    return this.writer().bulkLoad(threads, options);
  }

  /** Makes everything written so far searchable. */
  async refresh(): Promise<void> {
    return this.writer().refresh();
  }

  /** Commits durably: segments, live docs and a new manifest. */
  async commit(): Promise<CommitResult> {
    return this.writer().commit();
  }

  /**
   * Discards every write since the last commit (buffered, refreshed or merged, and logged), e.g.
   * when a source file turns out to be bad half-way. Durable once resolved.
   */
  async rollback(): Promise<CommitResult> {
    return this.writer().rollback();
  }

  /** Records a source checkpoint to be stored by the next commit. */
  setCheckpoint(source: string, position: unknown): void {
    this.writer().setCheckpoint(source, position);
  }

  /** Checkpoints stored by the last commit. */
  get checkpoints(): Readonly<Record<string, unknown>> {
    return this.reads.commit.checkpoints;
  }

  /**
   * Runs a search request on the latest snapshot, after embedding the text of its `semantic`
   * queries with their fields' models (semantic-query.ts). The HTTP API answers with this.
   */
  async searchAsync(request: SearchRequest = {}): Promise<SearchResponse> {
    const started = performance.now();
    const query = await embedSemanticQueries(request.query, this.mapping, this.embedders);
    const prepared = prepareSearch(query === request.query ? request : { ...request, query }, this.mapping);
    return this.reader().search(prepared, started);
  }

  /** Runs a search request on the latest snapshot; a `semantic` query needs {@link searchAsync}. */
  search(request: SearchRequest = {}): SearchResponse {
    const started = performance.now();
    const prepared = prepareSearch(request, this.mapping);
    return this.reader().search(prepared, started);
  }

  /**
   * Completion suggestions for what a user has typed (see `suggest/suggester.ts`); throws
   * `invalid_query` naming an unknown key, an unknown field or a field without `suggest`.
   */
  async suggest(request: SuggestRequest): Promise<SuggestResponse> {
    const started = performance.now();
    const prepared = prepareSuggest(request, this.mapping);
    const snapshot = this.reader().acquireSnapshot();
    try {
      return await suggest(snapshot, prepared, started);
    } finally {
      snapshot.release();
    }
  }

  /** Figures about the index. */
  stats(): IndexStats {
    const snapshot = this.reader().acquireSnapshot();
    try {
      const commit = this.reads.commit;
      let sizeBytes = 0;
      for (const s of commit.segments) for (const f of s.files) sizeBytes += f.size;
      return {
        name: this.name,
        docs: snapshot.liveCount,
        segments: snapshot.segments.length,
        seq: commit.seq,
        committedAt: commit.committedAt,
        sizeBytes,
        ...this.writes.figures(),
      };
    } finally {
      snapshot.release();
    }
  }

  /** The segments of the snapshot searches see now. */
  segmentFigures(): SegmentFigures[] {
    const snapshot = this.reader().acquireSnapshot();
    try {
      return snapshot.segments.map(({ reader, liveDocs, docBase }) => ({
        name: reader.info.name,
        docBase,
        maxDoc: reader.maxDoc,
        liveDocs: liveDocs.liveCount,
        files: reader.info.files.map((f) => f.name),
        fields: Object.keys(reader.info.fieldStats),
        sizeBytes: segmentBytes(reader.info),
      }));
    } finally {
      snapshot.release();
    }
  }

  /** Re-reads every file of the last commit and checks sizes and checksums; throws on damage. */
  async verify(): Promise<{ files: number; bytes: number }> {
    const manifest: Manifest = this.reads.commit;
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

  /** Switches a read-only index to the newest commit if there is one; returns the served seq. */
  async reload(): Promise<number> {
    return this.reader().reload();
  }

  /** Stops the refresh timer, commits what is pending (writers) and releases the lock. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.reopener?.stop();
    this.reads.close();
    await this.writes.close();
  }

  private checkOpen(): void {
    if (this.closed) throw new YarrowError(ErrorCode.indexClosed, `index ${this.name} is closed`);
  }
}
