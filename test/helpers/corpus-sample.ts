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
