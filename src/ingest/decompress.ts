/**
 * Decompression chosen by the first bytes of a stream, not by its name: a gzip file called
 * `data.jsonl` or a zstd object served without an extension are still read correctly.
 */
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { createZstdDecompressor } from './zstd-decompressor.js';

/** A compression format recognised by its magic bytes. */
export type Compression = 'gzip' | 'zstd' | 'none';

/** Recognises gzip (1f 8b) and zstd frames (28 b5 2f fd) from at least four leading bytes. */
export function detectCompression(head: Uint8Array): Compression {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head.length >= 4 && head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd) return 'zstd';
  return 'none';
}

/**
 * Reads the first bytes of `input`, then returns a stream of its decompressed content (or the
 * bytes as they are). Backpressure holds end to end: nothing is read ahead of the consumer beyond
 * the streams' own buffers. Errors of the input or the decoder surface on the returned stream.
 */
export async function decompressByMagic(input: AsyncIterable<Buffer>): Promise<{ stream: Readable; compression: Compression }> {
  const chunks = input[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headBytes = 0;
  let done = false;
  while (headBytes < 4) {
    const next = await chunks.next();
    if (next.done === true) {
      done = true;
      break;
    }
    head.push(next.value);
    headBytes += next.value.length;
  }
  const compression = detectCompression(Buffer.concat(head));
  const replay = Readable.from(chain(head, done ? null : chunks), { objectMode: false });
  if (compression === 'none') return { stream: replay, compression };
  const decoder = compression === 'gzip' ? createGunzip() : createZstdDecompressor();
  // The pipeline destroys the decoder with any error, which is where the consumer reads.
  pipeline(replay, decoder, () => undefined);
  return { stream: decoder, compression };
}

async function* chain(head: readonly Buffer[], rest: AsyncIterator<Buffer> | null): AsyncGenerator<Buffer> {
  for (const chunk of head) yield chunk;
  if (rest === null) return;
  try {
    for (let next = await rest.next(); next.done !== true; next = await rest.next()) yield next.value;
  } finally {
    // Stopping early (an error downstream) must release the file handle or connection.
    await rest.return?.();
  }
}
