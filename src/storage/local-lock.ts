/**
 * The local write lock: a file created with O_EXCL holding the JSON of its owner. The file itself
 * is the lock, so it outlives a crashed holder; that is why a takeover first proves the holder gone
 * (same host and its pid is dead, or its pid is ours from an earlier incarnation) and reports it.
 */
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { Lock, LockOwner } from '../engine/directory.js';
import { decodeLockOwner, encodeLockOwner, lockHeldError, unknownLockOwner } from './lock-owner.js';
import { errorCode } from './system-error.js';

/**
 * Lock paths this process holds or is taking. A second obtain in the same process must be refused
 * like any live holder, and without this map it would see our own pid in the file and call it stale.
 */
const heldInProcess = new Map<string, LockOwner>();

/** What was found in an existing lock file. */
interface FoundLock {
  readonly owner: LockOwner;
  readonly bytes: Uint8Array;
  readonly garbled: boolean;
}

/**
 * Takes the lock file at absolute `path` for `owner`, taking over a stale one at most once (a second
 * stale file right after means another process is racing us for it: refuse rather than loop).
 */
export async function obtainLocalLock(
  path: string,
  owner: LockOwner,
  onStale?: (stale: LockOwner) => void,
): Promise<Lock> {
  const mine = heldInProcess.get(path);
  if (mine !== undefined) throw lockHeldError(mine, path);
  // Claim the path before the first await so that a concurrent obtain in this process is refused.
  heldInProcess.set(path, owner);
  try {
    let tookOver = false;
    let lastSeen: LockOwner | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await tryCreate(path, owner)) return new LocalLock(path, owner);
      const found = await readLock(path);
      if (found === undefined) continue; // released between our create and read
      lastSeen = found.owner;
      if (tookOver || !isStale(found)) break;
      onStale?.(found.owner);
      await unlinkIfUnchanged(path, found.bytes);
      tookOver = true;
    }
    throw lockHeldError(lastSeen ?? unknownLockOwner('unknown'), path);
  } catch (error) {
    heldInProcess.delete(path);
    throw error;
  }
}

/** A held local lock; release deletes the file only while it still names us. */
class LocalLock implements Lock {
  private releasing: Promise<void> | undefined;

  constructor(
    private readonly path: string,
    readonly owner: LockOwner,
  ) {}

  release(): Promise<void> {
    this.releasing ??= this.doRelease();
    return this.releasing;
  }

  private async doRelease(): Promise<void> {
    try {
      await unlinkIfUnchanged(this.path, encodeLockOwner(this.owner));
    } finally {
      if (heldInProcess.get(this.path) === this.owner) heldInProcess.delete(this.path);
    }
  }
}

/** Creates the lock file exclusively; false when it already exists. */
async function tryCreate(path: string, owner: LockOwner): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'wx');
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(encodeLockOwner(owner));
  } catch (error) {
    await handle.close();
    await unlink(path).catch(() => undefined);
    throw error;
  }
  await handle.close();
  return true;
}

/** Reads an existing lock file; undefined when it no longer exists. */
async function readLock(path: string): Promise<FoundLock | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  const owner = decodeLockOwner(bytes);
  if (owner !== undefined) return { owner, bytes, garbled: false };
  const since = await stat(path).then(
    (s) => s.mtime.toISOString(),
    () => 'unknown',
  );
  return { owner: unknownLockOwner(since), bytes, garbled: true };
}

/**
 * Whether the holder is provably gone. A holder on another host cannot be checked, so it is live.
 * Our own pid in the file is a previous process that had the same pid (heldInProcess was checked).
 */
function isStale(found: FoundLock): boolean {
  if (found.garbled) return true;
  const { pid, hostname: host } = found.owner;
  if (host !== hostname()) return false;
  if (pid === process.pid) return true;
  return !isAlive(pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(error) !== 'ESRCH';
  }
}

/**
 * Deletes the lock file if it still has `expected` content, so that we never delete a lock another
 * process took in the meantime (it would then have two holders).
 */
async function unlinkIfUnchanged(path: string, expected: Uint8Array): Promise<void> {
  let current: Uint8Array;
  try {
    current = await readFile(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  if (!sameBytes(current, expected)) return;
  try {
    await unlink(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
