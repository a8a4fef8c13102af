/**
 * Positional reads that fill the whole range: `FileHandle.read` may return fewer bytes than asked.
 */
import type { FileHandle } from 'node:fs/promises';

/** Reads `length` bytes at `offset` of an open file; null when the file ends before the range does. */
export async function readFully(handle: FileHandle, offset: number, length: number): Promise<Uint8Array | null> {
  const bytes = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(bytes, filled, length - filled, offset + filled);
    if (bytesRead === 0) return null;
    filled += bytesRead;
  }
  return bytes;
}
