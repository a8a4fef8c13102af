/**
 * Pull indexing of files, one file per commit: every batch of a file is upserted, then the file is
 * committed; if anything fails in a file (bad line, broken stream, interrupt) the writes since the
 * last commit are rolled back, so a file is indexed entirely or not at all and the files before it
 * stay committed. A SIGKILL cannot roll back, so each batch is tagged with the file (a token for
 * this attempt at it) in the write-ahead log and the file's end is logged before its commit:
 * replay leaves out a file whose end is missing (see `engine/commit/wal-replay.ts`).
 *
 * Re-running is idempotent: documents are upserted by `_id`, and a document without one gets an id
 * derived from the source URL, the file and the line (not a random one), so a re-run after a crash
 * or a fix replaces rather than duplicates.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { BatchSource } from '../engine/index.js';
import { YarrowError } from '../engine/index.js';
import { decompressByMagic } from './decompress.js';
import type { SourceObject } from './file-source.js';
import { readJsonlBatches } from './jsonl-batches.js';
import type { JsonlBatch } from './jsonl-batches.js';
import type { ProgressReporter } from './progress-reporter.js';
import { describeCause, SourceError } from './source-error.js';

/** The part of the engine's Index that pull indexing uses. */
export interface IndexingTarget {
  upsert(docs: readonly unknown[], source: BatchSource): Promise<unknown>;
  endFile(file: string): Promise<unknown>;
  commit(): Promise<{ readonly seq: number }>;
  rollback(): Promise<unknown>;
  setCheckpoint(source: string, position: unknown): void;
}

/** What one indexed file produced. */
export interface FileResult {
  readonly name: string;
  readonly docs: number;
  readonly lines: number;
  readonly seq: number;
}

/** Wiring of a {@link FileIndexer}. */
export interface FileIndexerOptions {
  readonly target: IndexingTarget;
  readonly progress: ProgressReporter;
  /** Checkpoint key under which each finished file is recorded (the source URL). */
  readonly checkpointKey: string;
  readonly signal?: AbortSignal;
  /** Creates the error thrown when `signal` aborts. */
  readonly interrupted?: () => Error;
  readonly onFileDone?: (result: FileResult) => void;
  /** Told after a failing file was rolled back. */
  readonly onFileRolledBack?: (name: string) => void;
  /** Documents per upsert (default 5,000). */
  readonly batchDocs?: number;
  /** Content bytes per upsert (default 8 MiB). */
  readonly batchBytes?: number;
}

/** Indexes files into a target, committing after each. */
export class FileIndexer {
  constructor(private readonly options: FileIndexerOptions) {}

  /** Indexes `objects` in order; stops at the first failing file, after rolling it back. */
  async indexAll(objects: readonly SourceObject[]): Promise<FileResult[]> {
    const results: FileResult[] = [];
    for (const object of objects) results.push(await this.indexOne(object));
    return results;
  }

  /** Indexes and commits one file, or rolls it back and rethrows. */
  async indexOne(object: SourceObject): Promise<FileResult> {
    const { target } = this.options;
    try {
      this.checkSignal();
      const file = `${object.name} (${randomUUID()})`;
      const { docs, lines } = await this.feed(object, file);
      this.checkSignal();
      await target.endFile(file);
      target.setCheckpoint(this.options.checkpointKey, { file: object.name, lines, docs });
      const { seq } = await target.commit();
      const result = { name: object.name, docs, lines, seq };
      this.options.onFileDone?.(result);
      return result;
    } catch (e) {
      await target.rollback();
      this.options.onFileRolledBack?.(object.name);
      throw e;
    }
  }

  private async feed(object: SourceObject, file: string): Promise<{ docs: number; lines: number }> {
    const { progress, target } = this.options;
    let raw;
    try {
      raw = await object.open();
    } catch (e) {
      throw asSourceError(e, object.name);
    }
    const counted = countBytes(raw, (n) => { progress.addSourceBytes(n); });
    const batches = readJsonlBatches((await decompressByMagic(counted)).stream, {
      source: object.name,
      ...(this.options.batchDocs === undefined ? {} : { maxDocs: this.options.batchDocs }),
      ...(this.options.batchBytes === undefined ? {} : { maxBytes: this.options.batchBytes }),
    });
    let docs = 0;
    let lines = 0;
    let next = pull(batches, object.name);
    try {
      for (;;) {
        const step = await next;
        if (step.done === true) break;
        // Parse the next batch while this one waits for its write-ahead log fsync.
        next = pull(batches, object.name);
        void next.catch(() => undefined);
        this.checkSignal();
        const batch = step.value;
        this.assignLineIds(batch, object.name);
        await target.upsert(batch.docs, { ...batchSource(batch), file });
        docs += batch.docs.length;
        lines = batch.lines[batch.lines.length - 1];
        progress.addDocs(batch.docs.length, batch.bytes);
      }
    } finally {
      // Stops reading (closing the file or connection) when a batch failed.
      raw.destroy();
      await batches.return(undefined).catch(() => undefined);
    }
    return { docs, lines };
  }

  /** Gives each document without `_id` one derived from source, file and line (see the module comment). */
  private assignLineIds(batch: JsonlBatch, name: string): void {
    batch.docs.forEach((doc, i) => {
      if (typeof doc !== 'object' || doc === null || Array.isArray(doc) || '_id' in doc) return;
      const key = `${this.options.checkpointKey}\n${name}\n${String(batch.lines[i])}`;
      (doc as Record<string, unknown>)._id = createHash('sha256').update(key).digest('base64url').slice(0, 22);
    });
  }

  private checkSignal(): void {
    if (this.options.signal?.aborted === true) throw this.options.interrupted?.() ?? new Error('interrupted');
  }
}

async function pull(batches: AsyncGenerator<JsonlBatch>, name: string): Promise<IteratorResult<JsonlBatch>> {
  try {
    return await batches.next();
  } catch (e) {
    throw asSourceError(e, name);
  }
}

/** Consecutive lines need only the first line number; gaps (blank lines) need one per document. */
function batchSource(batch: JsonlBatch): BatchSource {
  const { lines } = batch;
  if (lines[lines.length - 1] - lines[0] === lines.length - 1) return { source: batch.source, firstLine: lines[0] };
  return { source: batch.source, locations: lines.map((line) => ({ source: batch.source, line })) };
}

async function* countBytes(input: AsyncIterable<Buffer>, count: (n: number) => void): AsyncGenerator<Buffer> {
  for await (const chunk of input) {
    count(chunk.length);
    yield chunk;
  }
}

function asSourceError(e: unknown, name: string): Error {
  if (e instanceof YarrowError || e instanceof SourceError) return e;
  return new SourceError(`${name}: ${describeCause(e)}`, name, { cause: e });
}
