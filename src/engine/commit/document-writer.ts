/**
 * The write side as callers see it: documents in, validated once here (the edge of the engine),
 * serialised once for both the write-ahead log and the stored fields, and handed to the
 * {@link IndexWriter}. A process that opened an index read-only gets a {@link ReadOnlyWriter}, which
 * refuses every write, so that no method has to ask which kind of index it serves.
 */
import type { Directory } from '../directory.js';
import type { Embedder } from '../embedder.js';
import { ErrorCode, YarrowError } from '../errors.js';
import { TimeSlicer } from '../event-loop.js';
import { validateDocument } from '../schema/document.js';
import type { DocumentLocation, ValidDocument } from '../schema/document.js';
import type { Mapping } from '../schema/mapping.js';
import { canBulkLoad } from './bulk-load.js';
import type { BulkLoad } from './bulk-load.js';
import type { BulkLoadOptions } from './bulk-load.js';
import { embedDocuments } from './document-embedding.js';
import type { IndexWriter } from './index-writer.js';
import { prepare } from './prepared-document.js';
import type { CommitResult, PreparedDocument } from './writer-options.js';

/** Where a batch of documents came from, for error messages. */
export interface BatchSource {
  readonly source?: string;
  /** Line number of the first document (1-based); documents are then numbered by line. */
  readonly firstLine?: number;
  /** Per-document locations, when the caller knows them exactly. */
  readonly locations?: readonly DocumentLocation[];
  /**
   * The source file the batch belongs to, as a token unique to this attempt at the file: after a
   * crash the batch is replayed only if {@link DocumentWrites.endFile} logged the file's end.
   */
  readonly file?: string;
}

/** Writer figures for `stats()`. */
export interface WriterFigures {
  readonly bufferedDocs: number;
  readonly walBytes: number;
  readonly commits: number;
  readonly refreshes: number;
}

/** The operations of an index's write side. */
export interface DocumentWrites {
  upsert(docs: readonly unknown[], source?: BatchSource): Promise<{ docs: number }>;
  /** Indexes documents the caller validated already against this index's mapping (no second check). */
  upsertValidated(docs: readonly ValidDocument[]): Promise<{ docs: number }>;
  /**
   * Indexes a JSON body off this thread when the writer can (see `DocumentWriter.upsertBody`), or
   * returns null.
   */
  upsertBody(body: AsyncIterable<Uint8Array>, onChunk?: (docs: number, bytes: number) => void): Promise<{ docs: number; bytes: number }> | null;
  delete(ids: readonly string[]): Promise<void>;
  /** Merges down to at most `maxSegments` segments, none with deleted docs (durable at the next commit). */
  forceMerge(maxSegments: number): Promise<void>;
  /** Logs durably that every batch of the source `file` (a {@link BatchSource.file} token) is written. */
  endFile(file: string): Promise<void>;
  /**
   * Starts loading one JSON Lines input on `threads` worker threads without the write-ahead log
   * (`bulk-load.ts`; commit after {@link BulkLoad.finish}), or null when the mapping needs the
   * ordinary path (semantic fields: embedding runs on this thread).
   */
  bulkLoad(threads: number, options: BulkLoadOptions): BulkLoad | null;
  refresh(): Promise<void>;
  commit(): Promise<CommitResult>;
  rollback(): Promise<CommitResult>;
  setCheckpoint(source: string, position: unknown): void;
  figures(): WriterFigures;
  close(): Promise<void>;
}

/** The write side of an index this process holds the write lock of. */
export class DocumentWriter implements DocumentWrites {
  constructor(
    private readonly writer: IndexWriter,
    private readonly mapping: Mapping,
    /** Models that embed semantic fields' text before the log (document-embedding.ts). */
    private readonly embedders: ReadonlyMap<string, Embedder> = new Map(),
  ) {}

  /**
   * Validates and indexes documents (upsert by `_id`; a missing `_id` gets a generated one). All or
   * nothing: one invalid document rejects the whole batch with an error naming it, and the batch
   * is one write-ahead log record, so a crash keeps all of it or none. Resolves once the batch is
   * durable; searchable after the next refresh. Large batches yield to the event loop as they go.
   */
  async upsert(docs: readonly unknown[], source: BatchSource = {}): Promise<{ docs: number }> {
    const valid: ValidDocument[] = [];
    const slicer = new TimeSlicer();
    for (let i = 0; i < docs.length; i++) {
      if (slicer.due()) await slicer.yield();
      const location = source.locations?.[i] ?? locate(source, i);
      valid.push(validateDocument(this.mapping, docs[i], location));
    }
    return this.upsertValidated(valid, source.file);
  }

  /**
   * Writes the documents of a JSON body as it streams in (JSON Lines, concatenated values or an
   * array), all or nothing, parsing and validating them on the writer's inversion thread so that
   * this thread stays free for requests; null when the writer has no inversion thread or the
   * mapping embeds (the caller then splits and validates the body itself and calls
   * {@link upsertValidated}). Resolves once durable; an empty body writes nothing (`docs` 0).
   * `onChunk` sees the documents and bytes so far.
   * @throws YarrowError(invalid_document) naming the first invalid document.
   */
  upsertBody(body: AsyncIterable<Uint8Array>, onChunk?: (docs: number, bytes: number) => void): Promise<{ docs: number; bytes: number }> | null {
    return this.writer.takesBodies ? this.writer.writeBody(body, onChunk) : null;
  }

  /** {@link upsert} for documents validated at the edge already (the HTTP indexer checks as it streams). */
  async upsertValidated(validated: readonly ValidDocument[], file?: string): Promise<{ docs: number }> {
    // Semantic fields' text is embedded before anything is logged; the writer refuses a model
    // field still without a vector at the log (vector-check.ts).
    const docs = await embedDocuments(validated, this.mapping, this.embedders);
    const batch: PreparedDocument[] = [];
    const slicer = new TimeSlicer();
    for (const doc of docs) {
      if (slicer.due()) await slicer.yield();
      batch.push(prepare(doc));
    }
    await this.writer.write(batch, [], file);
    return { docs: batch.length };
  }

  /** Deletes documents by id (durable once resolved, visible after the next refresh). */
  async delete(ids: readonly string[]): Promise<void> {
    await this.writer.write([], ids);
  }

  forceMerge(maxSegments: number): Promise<void> {
    return this.writer.forceMerge(maxSegments);
  }

  endFile(file: string): Promise<void> {
    return this.writer.endFile(file);
  }

  bulkLoad(threads: number, options: BulkLoadOptions): BulkLoad | null {
    return canBulkLoad(this.mapping) ? this.writer.bulkLoad(threads, options) : null;
  }

  refresh(): Promise<void> {
    return this.writer.refresh();
  }

  commit(): Promise<CommitResult> {
    return this.writer.commit();
  }

  rollback(): Promise<CommitResult> {
    return this.writer.rollback();
  }

  setCheckpoint(source: string, position: unknown): void {
    this.writer.setCheckpoint(source, position);
  }

  figures(): WriterFigures {
    const { commits, refreshes } = this.writer.activity;
    return { bufferedDocs: this.writer.bufferedDocs, walBytes: this.writer.walBytes, commits, refreshes };
  }

  /** Waits for merges, commits what is pending and releases the lock (which file stays). */
  close(): Promise<void> {
    return this.writer.close();
  }
}

/** The write side of an index opened read-only: every write is refused. */
export class ReadOnlyWriter implements DocumentWrites {
  constructor(private readonly name: string, private readonly dir: Directory) {}

  upsert(): Promise<{ docs: number }> {
    return Promise.reject(this.refused());
  }

  upsertValidated(): Promise<{ docs: number }> {
    return Promise.reject(this.refused());
  }

  upsertBody(): Promise<{ docs: number; bytes: number }> {
    return Promise.reject(this.refused());
  }

  delete(): Promise<void> {
    return Promise.reject(this.refused());
  }

  forceMerge(): Promise<void> {
    return Promise.reject(this.refused());
  }

  endFile(): Promise<void> {
    return Promise.reject(this.refused());
  }

  bulkLoad(): BulkLoad | null {
    throw this.refused();
  }

  refresh(): Promise<void> {
    return Promise.reject(this.refused());
  }

  commit(): Promise<CommitResult> {
    return Promise.reject(this.refused());
  }

  rollback(): Promise<CommitResult> {
    return Promise.reject(this.refused());
  }

  setCheckpoint(): void {
    throw this.refused();
  }

  figures(): WriterFigures {
    return { bufferedDocs: 0, walBytes: 0, commits: 0, refreshes: 0 };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private refused(): YarrowError {
    return new YarrowError(ErrorCode.indexClosed, `index ${this.name} is open read-only (${this.dir.describe()})`);
  }
}

function locate(source: BatchSource, i: number): DocumentLocation {
  const loc: { source?: string; line?: number; ordinal?: number } = {};
  if (source.source !== undefined) loc.source = source.source;
  if (source.firstLine !== undefined) loc.line = source.firstLine + i;
  else loc.ordinal = i + 1;
  return loc;
}
