/**
 * Writes generated documents as JSON Lines until a file reaches a size: the big inputs of the
 * `index file` benchmarks, made on the fly rather than kept in the repository.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/**
 * Writes `next(0)`, `next(1)`, ... one JSON document per line to `path` (with backpressure) until
 * the file holds at least `megabytes` MiB; returns the number of documents written.
 */
export async function writeGeneratedJsonl(path: string, megabytes: number, next: (n: number) => unknown): Promise<number> {
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  const target = megabytes * 1024 * 1024;
  let written = 0;
  let docs = 0;
  while (written < target) {
    const line = `${JSON.stringify(next(docs))}\n`;
    written += Buffer.byteLength(line);
    docs++;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return docs;
}
