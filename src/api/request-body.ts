/**
 * Reads a request body as a stream of decoded chunks: `Content-Encoding` gzip, deflate, br or zstd
 * is undone on the fly, and the body limit is enforced on both the bytes received and the bytes
 * decoded (a small gzip bomb is as oversized as a big plain body). Nothing is buffered beyond the
 * streams' own buffers: the consumer's pace is the socket's pace.
 */
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { HttpError, HttpErrorType } from './http-status.js';

/** Default body limit: 100 MB. */
export const DEFAULT_BODY_LIMIT = 100 * 1024 * 1024;

function tooLarge(limit: number): HttpError {
  return new HttpError(HttpErrorType.payloadTooLarge, `the request body is larger than the limit of ${limit} bytes`, { limit }, { connection: 'close' });
}

/**
 * The decoder of a Content-Encoding, or null for none. The zstd decoder (fzstd, whose module body
 * builds its tables) is imported on the first zstd body, not by every server start (issue 17).
 */
async function decoderFor(encoding: string): Promise<Transform | null> {
  switch (encoding) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    case 'zstd':
      // The module, not the ingest barrel, which would load the file indexer into every server (issue 17).
      return (await import('../ingest/zstd-decompressor.js')).createZstdDecompressor();
    default:
      throw new HttpError(HttpErrorType.unsupportedEncoding, `unsupported Content-Encoding "${encoding}" (use gzip, deflate, br or zstd)`, { encoding });
  }
}

/**
 * Yields the decoded body of `raw`.
 * @throws HttpError 413 once either count passes `limit`; 415 for an unknown encoding; 400 when the
 *   compressed data is corrupt.
 */
export async function* readBody(raw: Readable, headers: { readonly [name: string]: string | string[] | undefined }, limit: number): AsyncGenerator<Buffer> {
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const encodingHeader = headers['content-encoding'];
  const encoding = (Array.isArray(encodingHeader) ? encodingHeader.join(',') : encodingHeader ?? '').trim().toLowerCase();
  const decoder = await decoderFor(encoding);
  let received = 0;
  const counted = async function* (): AsyncGenerator<Buffer> {
    for await (const chunk of raw) {
      const buf = chunk as Buffer;
      received += buf.length;
      if (received > limit) throw tooLarge(limit);
      yield buf;
    }
  };
  if (decoder === null) {
    yield* counted();
    return;
  }
  let decoded = 0;
  const failed: { error: unknown } = { error: null };
  const source = counted();
  pipeline(source, decoder, (err) => {
    if (err) failed.error = err;
  });
  try {
    for await (const chunk of decoder) {
      const buf = chunk as Buffer;
      decoded += buf.length;
      if (decoded > limit) throw tooLarge(limit);
      yield buf;
    }
  } catch (e) {
    if (e instanceof HttpError) throw e;
    if (failed.error instanceof HttpError) throw failed.error;
    throw new HttpError(HttpErrorType.invalidRequest, `the ${encoding} body cannot be decoded: ${(e as Error).message}`, { encoding });
  } finally {
    decoder.destroy();
  }
  if (failed.error instanceof HttpError) throw failed.error;
}

/** Reads a whole (small) body into one Buffer, under `limit`. */
export async function readWholeBody(raw: Readable, headers: { readonly [name: string]: string | string[] | undefined }, limit: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of readBody(raw, headers, limit)) parts.push(chunk);
  return Buffer.concat(parts);
}
