/**
 * The lock file's content: the JSON of its {@link LockOwner}, written so that a refused writer can
 * name the holder and a later process can tell whether the holder is gone. The lock file stays for
 * the index's lifetime: releasing it rewrites it as a `released` record naming the last holder.
 */
import type { LockOwner } from '../engine/directory.js';
import { ErrorCode, YarrowError } from '../engine/errors.js';

/** Serialises an owner into lock file bytes. */
export function encodeLockOwner(owner: LockOwner): Uint8Array {
  const { pid, hostname, since } = owner;
  return new TextEncoder().encode(JSON.stringify({ pid, hostname, since }));
}

/** What a lock file says: held by an owner, or released by its last one. */
export interface LockRecord {
  readonly state: 'held' | 'released';
  readonly owner: LockOwner;
}

/**
 * Serialises the record a holder leaves when it releases the lock. `releasedAt` makes every
 * release's bytes unique, so a claim on one record never matches a later one.
 */
export function encodeReleasedLock(owner: LockOwner, releasedAt: string): Uint8Array {
  const { pid, hostname, since } = owner;
  return new TextEncoder().encode(JSON.stringify({ state: 'released', pid, hostname, since, releasedAt }));
}

/** Parses a lock file (held or released); undefined when it is not a complete record. */
export function decodeLockRecord(bytes: Uint8Array): LockRecord | undefined {
  const owner = decodeLockOwner(bytes);
  if (owner === undefined) return undefined;
  const { state } = JSON.parse(new TextDecoder().decode(bytes)) as { state?: unknown };
  return { state: state === 'released' ? 'released' : 'held', owner };
}

/**
 * Parses lock file bytes; undefined when they are not a complete owner (a crash between creating
 * the file and writing it leaves it empty, and such a lock has no live holder to protect).
 */
export function decodeLockOwner(bytes: Uint8Array): LockOwner | undefined {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { pid, hostname, since } = value as Record<string, unknown>;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  if (typeof hostname !== 'string' || typeof since !== 'string') return undefined;
  return { pid, hostname, since };
}

/**
 * The owner reported for a lock file whose content cannot be parsed: nobody can be named, so the
 * pid is 0 and the hostname `unknown`; `since` is the best guess the caller has (file mtime).
 */
export function unknownLockOwner(since: string): LockOwner {
  return { pid: 0, hostname: 'unknown', since };
}

/** The `lock_held` error every Directory raises when a live holder has the lock. */
export function lockHeldError(holder: LockOwner, where: string): YarrowError {
  return new YarrowError(
    ErrorCode.lockHeld,
    `index is locked by pid ${holder.pid} on ${holder.hostname} since ${holder.since} (${where})`,
    { holder, source: where },
  );
}

/** The `file_not_found` error every Directory raises for a missing file. */
export function fileNotFoundError(name: string, where: string, cause?: unknown): YarrowError {
  return new YarrowError(
    ErrorCode.fileNotFound,
    `file not found: ${where}`,
    { source: where, file: name },
    cause === undefined ? undefined : { cause },
  );
}

/** The `corrupt_index` error every Directory raises for a range read past the end of a file. */
export function rangePastEndError(name: string, offset: number, length: number, size: number): YarrowError {
  return new YarrowError(
    ErrorCode.corruptIndex,
    `${name}: range ${offset}+${length} runs past the end of the file (${size} bytes)`,
    { file: name },
  );
}
