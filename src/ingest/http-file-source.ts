/**
 * One file over HTTP(S), streamed: the response body is pulled only as fast as it is indexed, so a
 * file of any size needs no more memory than a few chunks.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FileSource, SourceObject } from './file-source.js';
import { describeCause, SourceError } from './source-error.js';

/** A file at an `http://` or `https://` URL. */
export class HttpFileSource implements FileSource {
  constructor(readonly url: string) {}

  list(): Promise<SourceObject[]> {
    const url = this.url;
    let size: number | undefined;
    const object: SourceObject = {
      name: url,
      get size() {
        return size;
      },
      async open(): Promise<Readable> {
        let response: Response;
        try {
          // Ask for the bytes as stored: a .gz file must arrive gzipped, not re-encoded.
          response = await fetch(url, { headers: { 'accept-encoding': 'identity' }, redirect: 'follow' });
        } catch (e) {
          throw new SourceError(`GET ${url}: ${describeCause(e)}`, url, { cause: e });
        }
        if (!response.ok || response.body === null) {
          await response.body?.cancel();
          throw new SourceError(`GET ${url}: HTTP ${response.status} ${response.statusText}`.trimEnd(), url);
        }
        const length = Number(response.headers.get('content-length') ?? NaN);
        if (Number.isSafeInteger(length)) size = length;
        return Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
      },
    };
    return Promise.resolve([object]);
  }
}
