/**
 * A streaming zstd decompressor: fzstd, a pure-JavaScript decoder, on every Node version. node:zlib
 * has its own from Node 22.15, but (as of Node 24.21) it stops after the first frame of a stream and
 * silently drops the rest, and concatenated frames are valid zstd (`cat a.zst b.zst`, pzstd output).
 */
import { Decompress } from 'fzstd';
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';

/** A Transform from zstd frames (one or several, concatenated) to their content. */
export function createZstdDecompressor(): Transform {
  return new FzstdTransform();
}

class FzstdTransform extends Transform {
  private readonly decoder: Decompress;

  constructor() {
    super();
    this.decoder = new Decompress((data) => {
      // fzstd may hand out views of its window, which it overwrites later: copy.
      if (data.length > 0) this.push(Buffer.from(data));
    });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.decoder.push(chunk);
      callback();
    } catch (e) {
      callback(asError(e));
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      this.decoder.push(new Uint8Array(0), true);
      callback();
    } catch (e) {
      callback(asError(e));
    }
  }
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(`invalid zstd data: ${String(e)}`);
}
