/**
 * Splits a JSON Lines byte stream into batches of parsed documents, each knowing its source and the
 * line of every document. Lines are cut on raw bytes (a multi-byte character split across chunks is
 * joined before decoding); blank lines are skipped but counted; a UTF-8 byte order mark is ignored.
 */
import { decodeJsonLine, ErrorCode, isBlankLine, parseJsonLine, YarrowError } from '../engine/index.js';

/** A run of documents from one source. */
export interface JsonlBatch {
  readonly source: string;
  readonly docs: unknown[];
  /** The 1-based line of each document, ascending. */
  readonly lines: number[];
  /** Bytes of content this batch consumed, blank lines and newlines included (blank lines after the last document are not counted). */
  readonly bytes: number;
}

/** How {@link readJsonlBatches} cuts batches. */
export interface JsonlBatchOptions {
  /** Names the input in batches and errors. */
  readonly source: string;
  /** Close a batch at this many documents (default 5,000). */
  readonly maxDocs?: number;
  /** Close a batch once its lines reach this many bytes (default 8 MiB). */
  readonly maxBytes?: number;
  /** Longest line accepted; bounds memory on input without newlines (default 64 MiB). */
  readonly maxLineBytes?: number;
}

const NEWLINE = 0x0a;

/**
 * Yields batches of parsed JSON values in input order; the last batch may be smaller, and an input
 * without documents yields nothing. Pulls the next chunk only when the consumer asks for the next
 * batch, so memory stays bounded by one batch whatever the input size.
 * @throws YarrowError(ErrorCode.invalidDocument) for a line that is not valid JSON, naming source
 *   and line; documents before it in the same batch are not yielded.
 */
export async function* readJsonlBatches(chunks: AsyncIterable<Uint8Array>, options: JsonlBatchOptions): AsyncGenerator<JsonlBatch> {
  const { source } = options;
  const maxDocs = options.maxDocs ?? 5000;
  const maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
  const maxLineBytes = options.maxLineBytes ?? 64 * 1024 * 1024;
  let docs: unknown[] = [];
  let lines: number[] = [];
  let bytes = 0;
  let line = 0;
  let carry: Buffer[] = [];
  let carryBytes = 0;

  const take = (bytes: Buffer, start: number, end: number): void => {
    line++;
    let text = decodeJsonLine(bytes, start, end, source, line);
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (isBlankLine(text)) return;
    docs.push(parseJsonLine(text, source, line));
    lines.push(line);
  };

  for await (const raw of chunks) {
    const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE, start); nl >= 0; nl = chunk.indexOf(NEWLINE, start)) {
      if (carryBytes > 0) {
        carry.push(chunk.subarray(start, nl));
        take(Buffer.concat(carry, carryBytes + nl - start), 0, carryBytes + nl - start);
        bytes += carryBytes + nl - start + 1;
        carry = [];
        carryBytes = 0;
      } else {
        take(chunk, start, nl);
        bytes += nl - start + 1;
      }
      start = nl + 1;
      if (docs.length >= maxDocs || bytes >= maxBytes) {
        yield { source, docs, lines, bytes };
        docs = [];
        lines = [];
        bytes = 0;
      }
    }
    if (start < chunk.length) {
      carry.push(chunk.subarray(start));
      carryBytes += chunk.length - start;
      if (carryBytes > maxLineBytes) {
        throw new YarrowError(ErrorCode.invalidDocument, `${source}, line ${line + 1}: line is longer than ${maxLineBytes} bytes`, {
          source,
          line: line + 1,
          expected: 'a JSON object on one line',
          actual: `more than ${maxLineBytes} bytes without a newline`,
        });
      }
    }
  }
  if (carryBytes > 0) {
    take(Buffer.concat(carry, carryBytes), 0, carryBytes);
    bytes += carryBytes;
  }
  if (docs.length > 0) yield { source, docs, lines, bytes };
}
