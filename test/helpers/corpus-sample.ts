import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/**
 * The uncompressed bytes of a real corpus (`npm-packages.jsonl.gz`, `debian-packages.jsonl.gz`)
 * from the shared data directory: `shared/data` beside the checkout or above it.
 */
export function corpusBytes(file: string): Buffer {
  let dir = fileURLToPath(new URL('.', import.meta.url));
  while (!existsSync(path.join(dir, 'shared', 'data', file)) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return gunzipSync(readFileSync(path.join(dir, 'shared', 'data', file)));
}

/** The first `lines` lines (each with its newline) of a real corpus, as {@link corpusBytes} finds it. */
export function corpusLines(file: string, lines: number): Uint8Array {
  const all = corpusBytes(file);
  let end = 0;
  for (let n = 0; n < lines && end >= 0; n++) end = all.indexOf(0x0a, end) + 1;
  return Uint8Array.from(all.subarray(0, end > 0 ? end : all.length));
}
