/**
 * One `_index` request: the body is split into documents as it streams in and each is validated
 * on arrival (a bad document fails the request before anything is written), then all documents are
 * written in one engine batch: one write-ahead log record, so the request is all or nothing even
 * if the process dies, while the engine inverts it in slices that leave the event loop free for
 * searches. The response waits until the batch is durable.
 *
 * A writer with an inversion thread (`api`, `standalone`) takes the body as it streams instead:
 * splitting, parsing, validating and serialising happen on that thread, and this one only forwards
 * the bytes and logs the batch (issue 17: search latency while indexing at full speed).
 */
import { JsonValueSplitter, TimeSlicer } from '../engine/index.js';
import type { Index, ValidDocument } from '../engine/index.js';
import { HttpError, HttpErrorType } from './http-status.js';

/** Tuning and hooks of {@link indexBody}. */
export interface PushOptions {
  /** Called every `progressBytes` of body (default 16 MiB) and at the end of a large body. */
  readonly onProgress?: (docs: number, bytes: number) => void;
  readonly progressBytes?: number;
}

/** What a successful `_index` did. */
export interface PushResult {
  readonly docs: number;
  readonly bytes: number;
}

/**
 * Reads `body` to the end, then writes every document; all or nothing for invalid input.
 * @throws YarrowError(invalid_document) naming the document (line or ordinal and offset, field);
 *   HttpError(invalid_request) when the body holds no document.
 */
export async function indexBody(index: Index, body: AsyncIterable<Buffer>, options: PushOptions = {}): Promise<PushResult> {
  const progressBytes = options.progressBytes ?? 16 * 1024 * 1024;
  let nextReport = progressBytes;
  const streamed = index.writer().upsertBody(body, (docs, bytes) => {
    if (bytes < nextReport) return;
    options.onProgress?.(docs, bytes);
    nextReport += progressBytes;
  });
  if (streamed !== null) {
    const result = await streamed;
    if (result.docs === 0) throw noDocuments();
    if (result.bytes >= progressBytes) options.onProgress?.(result.docs, result.bytes);
    return result;
  }
  const splitter = new JsonValueSplitter();
  const docs: ValidDocument[] = [];
  let nextProgress = progressBytes;
  const take = (values: ReturnType<JsonValueSplitter['push']>): void => {
    for (const { value, location } of values) {
      // Checked now, so that a bad document fails the request while it is still streaming in;
      // the engine takes the validated form and does not check it again.
      docs.push(index.validate(value, location));
    }
  };
  // Chunks a client sent faster than they are parsed wait in the stream and are handed over in
  // microtasks, one after another: without these yields a large body would be parsed and validated
  // in one go while searches wait (issue 17: latency while indexing).
  const slicer = new TimeSlicer();
  for await (const chunk of body) {
    take(splitter.push(chunk));
    if (slicer.due()) await slicer.yield();
    if (splitter.bytes >= nextProgress) {
      options.onProgress?.(docs.length, splitter.bytes);
      nextProgress += progressBytes;
    }
  }
  take(splitter.end());
  if (docs.length === 0) throw noDocuments();
  await index.writer().upsertValidated(docs);
  if (splitter.bytes >= progressBytes) options.onProgress?.(docs.length, splitter.bytes);
  return { docs: docs.length, bytes: splitter.bytes };
}

function noDocuments(): HttpError {
  return new HttpError(HttpErrorType.invalidRequest, 'the request body holds no documents: send one JSON object per line', { expected: 'at least one document', actual: 'empty body' });
}
