/**
 * Temporary directories for a test file: each is made under the OS temp directory and all of them
 * are removed when the file's tests end, whether they passed or not.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/**
 * Registers the clean-up with the calling test file (call it at the file's top level) and returns
 * a function that makes a fresh directory named `<prefix><random>` and returns its path.
 */
export function temporaryDirectories(prefix: string): () => Promise<string> {
  const made: string[] = [];
  after(async () => {
    await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
