/**
 * Pull indexing of files, one file per commit: every document of a file is written, then the file
 * is committed; if anything fails in a file (bad line, broken stream, interrupt) the writes since
 * the last commit are rolled back, so a file is indexed entirely or not at all and the files before
 * it stay committed.
 *
 * Two paths, the same contract. When the target can bulk load (`Index.bulkLoad`: no semantic
 * field to embed), the file's raw bytes are cut into chunks of whole lines and handed to worker
 * threads that parse, validate and invert them into segments; nothing is logged, and nothing is
 * published before the file's commit, so a SIGKILL leaves the last commit and files the next open
 * deletes (`engine/commit/bulk-load.ts`). Otherwise batches are parsed here and upserted; a SIGKILL
 * cannot roll back, so each batch is tagged with the file (a token for this attempt at it) in the
 * write-ahead log and the file's end is logged before its commit: replay leaves out a file whose
 * end is missing (see `engine/commit/wal-replay.ts`).
 *
 * Re-running is idempotent: documents are upserted by `_id`, and a document without one gets an id
 * derived from the source URL, the file and the line (not a random one), so a re-run after a crash
 * or a fix replaces rather than duplicates.
 */
import { randomUUID } from 'node:crypto';
import type { BatchSource, BulkLoad, BulkLoadOptions } from '../engine/index.js';
import { ErrorCode, lineDocumentId, YarrowError } from '../engine/index.js';
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
  /** Loads one file on worker threads without the log, or null when the target cannot. */
  bulkLoad?(threads: number, options: BulkLoadOptions): BulkLoad | null;
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
  /** Worker threads that parse and invert a file when the target can bulk load (default 0: batches upserted from this thread). */
  readonly bulkThreads?: number;
  /**
   * Bytes of whole lines per chunk handed to a bulk-load thread (default 1 MiB); in the input's
   * last `bulkThreads * 3` chunks (by its listed size) a quarter of that, so that the threads
   * run out of chunks together rather than one indexing a last big chunk while the other waits.
   */
  readonly chunkBytes?: number;
  /** Longest line accepted; bounds memory on input without newlines (default 64 MiB). */
  readonly maxLineBytes?: number;
}

const NEWLINE = 0x0a;

/** How much smaller the chunks of the input's tail are (see {@link FileIndexerOptions.chunkBytes}). */
const TAIL_CHUNK_DIVISOR = 4;

/** Indexes files into a target, committing after each. */
export class FileIndexer {
  constructor(private readonly options: FileIndexerOptions) {}

  /** Indexes `objects` in order; stops at the first failing file, after rolling it back. */
  async indexAll(objects: readonly SourceObject[]): Promise<FileResult[]> {
    const results: FileResult[] = [];
    for (const [i, object] of objects.entries()) results.push(await this.indexOne(object, i === objects.length - 1));
    return results;
  }

  /**
   * Indexes and commits one file, or rolls it back and rethrows. `last`: no file follows, so a
   * bulk load's threads stop once it is built (`BulkLoadOptions.last`).
   */
  async indexOne(object: SourceObject, last = false): Promise<FileResult> {
    const { target } = this.options;
    try {
      this.checkSignal();
      const bulk = (this.options.bulkThreads ?? 0) > 0
        ? (target.bulkLoad?.(this.options.bulkThreads!, {
            source: object.name,
            idPrefix: this.idPrefix(object.name),
            last,
            onProgress: (docs, bytes) => { this.options.progress.addDocs(docs, bytes); },
          }) ?? null)
        : null;
      let docs: number;
      let lines: number;
      if (bulk === null) {
        const file = `${object.name} (${randomUUID()})`;
        ({ docs, lines } = await this.feed(object, file));
        this.checkSignal();
        await target.endFile(file);
      } else {
        ({ docs, lines } = await this.feedBulk(object, bulk));
        this.checkSignal();
      }
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

  /**
   * Feeds one file to a bulk load: chunks of whole lines, cut on raw bytes (a multi-byte character
   * never straddles a newline) and copied once into a buffer the thread takes over.
   */
  private async feedBulk(object: SourceObject, load: BulkLoad): Promise<{ docs: number; lines: number }> {
    const maxLineBytes = this.options.maxLineBytes ?? 64 * 1024 * 1024;
    const fullChunkBytes = Math.min(this.options.chunkBytes ?? 1024 * 1024, maxLineBytes);
    // Where the input's tail starts, in bytes of the source (compressed or not, as listed; never when unknown).
    const tailFrom = (object.size ?? Infinity) - fullChunkBytes * 3 * Math.max(1, this.options.bulkThreads ?? 1);
    let sourceBytes = 0;
    let chunkBytes = fullChunkBytes;
    let raw;
    try {
      try {
        raw = await object.open();
      } catch (e) {
        throw asSourceError(e, object.name);
      }
      const counted = countBytes(raw, (n) => {
        sourceBytes += n;
        if (sourceBytes >= tailFrom) chunkBytes = Math.max(1, Math.floor(fullChunkBytes / TAIL_CHUNK_DIVISOR));
        this.options.progress.addSourceBytes(n);
      });
      const input = (await decompressByMagic(counted)).stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
      let held: Buffer[] = [];
      let heldBytes = 0;
      /** Line number of the first held byte. */
      let line = 1;
      for (;;) {
        const step = await pull(input, object.name);
        this.checkSignal();
        if (step.done === true) break;
        const value: Uint8Array = step.value;
        const piece = Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
        // Chunks of about chunkBytes, each ending at a newline (a line longer than that is a chunk of its own).
        let start = 0;
        while (heldBytes + piece.length - start >= chunkBytes) {
          const limit = start + Math.max(0, chunkBytes - heldBytes);
          let nl = limit > start ? piece.lastIndexOf(NEWLINE, limit - 1) : -1;
          if (nl < start) nl = piece.indexOf(NEWLINE, limit);
          if (nl < 0) break;
          const chunk = copyOf([...held, piece.subarray(start, nl + 1)], heldBytes + nl + 1 - start);
          held = [];
          heldBytes = 0;
          start = nl + 1;
          const newlines = countNewlines(chunk);
          await load.push(chunk, line);
          line += newlines;
        }
        if (start < piece.length) {
          held.push(piece.subarray(start));
          heldBytes += piece.length - start;
        }
        // Held bytes reach chunkBytes only without a newline: one line that long.
        if (heldBytes > maxLineBytes) {
          // A line before this one may be invalid too: that one is reported first.
          await load.check();
          throw lineTooLong(object.name, line, maxLineBytes);
        }
      }
      if (heldBytes > 0) await load.push(copyOf(held, heldBytes), line);
      const { docs, lastLine } = await load.finish();
      return { docs, lines: lastLine };
    } catch (e) {
      await load.abort();
      throw e;
    } finally {
      raw?.destroy();
    }
  }

  /** Prefix of the ids derived for documents without `_id`: source URL and file (see the module comment). */
  private idPrefix(name: string): string {
    return `${this.options.checkpointKey}\n${name}\n`;
  }

  /** Gives each document without `_id` one derived from source, file and line (see the module comment). */
  private assignLineIds(batch: JsonlBatch, name: string): void {
    const prefix = this.idPrefix(name);
    batch.docs.forEach((doc, i) => {
      if (typeof doc !== 'object' || doc === null || Array.isArray(doc) || '_id' in doc) return;
      (doc as Record<string, unknown>)._id = lineDocumentId(prefix, batch.lines[i]);
    });
  }

  private checkSignal(): void {
    if (this.options.signal?.aborted === true) throw this.options.interrupted?.() ?? new Error('interrupted');
  }
}

async function pull<T>(batches: AsyncIterator<T>, name: string): Promise<IteratorResult<T>> {
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

/** The bytes of `parts` in a buffer of their own. */
function copyOf(parts: readonly Uint8Array[], bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function countNewlines(bytes: Uint8Array): number {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let n = 0;
  for (let i = buf.indexOf(NEWLINE); i >= 0; i = buf.indexOf(NEWLINE, i + 1)) n++;
  return n;
}

function lineTooLong(source: string, line: number, maxLineBytes: number): YarrowError {
  return new YarrowError(ErrorCode.invalidDocument, `${source}, line ${line}: line is longer than ${maxLineBytes} bytes`, {
    source,
    line,
    expected: 'a JSON object on one line',
    actual: `more than ${maxLineBytes} bytes without a newline`,
  });
}

function asSourceError(e: unknown, name: string): Error {
  if (e instanceof YarrowError || e instanceof SourceError) return e;
  return new SourceError(`${name}: ${describeCause(e)}`, name, { cause: e });
}
