/**
 * The local write lock. `write.lock` stays for the index's lifetime; who holds it lives in its
 * content, a JSON record that is either `held` (pid, host, since) or `released` (the last holder).
 *
 * Every record reaches the lock file whole: it is written to a temp file and fsynced first, then
 * put in place with `link` (creating the lock file, which fails if it exists) or `rename` (replacing
 * a record). So no process ever reads an empty or half-written record and mistakes it for stale.
 *
 * Replacing a record (a released one, or a held one whose holder is provably gone) is a transition
 * that only one process may make: it first creates, with `link`, the claim file
 * `write.lock.claim-<hash of the record it replaces>`, then checks the lock still holds that record,
 * then renames its own record over it and removes the claim. Two contenders for the same record
 * race on the claim's creation and exactly one wins. A claim whose creator died is itself a record
 * with a dead holder and is taken over the same way (a claim on the claim), so a writer killed at
 * any point never blocks the next one.
 */
import { createHash } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { hostname } from 'node:os';
import type { Lock, LockOwner } from '../engine/directory.js';
import { lockClaimFile, lockTempFile } from '../engine/index-files.js';
import { decodeLockRecord, encodeLockOwner, encodeReleasedLock, lockHeldError, unknownLockOwner } from './lock-owner.js';
import type { LockRecord } from './lock-owner.js';
import { errorCode } from './system-error.js';

/**
 * Lock paths this process holds or is taking. A second obtain in the same process must be refused
 * like any live holder, and without this map it would see our own pid in the file and call it stale.
 */
const heldInProcess = new Map<string, LockOwner>();

/** Attempts before giving up under contention (each one re-reads the lock). */
const ATTEMPTS = 8;
/** Deepest chain of claims on claims (one level per contender killed while claiming). */
const MAX_CLAIM_DEPTH = 8;

/** What was found in a lock or claim file. */
interface Found {
  readonly bytes: Uint8Array;
  /** Undefined when the content is not a record (a foreign or damaged file). */
  readonly record: LockRecord | undefined;
}

/** Takes the lock file at absolute `path` for `owner`; see the module comment. */
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
    const held = encodeLockOwner(owner);
    let reported = false;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const found = await readIfExists(path);
      if (found === undefined) {
        if (await placeExclusive(path, held)) return new LocalLock(path, owner, held);
        continue;
      }
      if (found.record?.state !== 'released') {
        if (found.record !== undefined && !isGone(found.record.owner)) throw lockHeldError(found.record.owner, path);
        if (!reported) onStale?.(found.record?.owner ?? unknownLockOwner(await mtimeOf(path)));
        reported = true;
      }
      const claims = await claim(path, found.bytes, held, 0);
      if (claims === undefined) continue;
      try {
        // Only a holder of the claim may move the lock off `found`: if it still holds it, it is ours.
        const now = await readIfExists(path);
        if (now !== undefined && sameBytes(now.bytes, found.bytes)) {
          await replace(path, held);
          return new LocalLock(path, owner, held);
        }
      } finally {
        for (const c of claims) await unlinkQuietly(c);
      }
    }
    const last = await readIfExists(path);
    throw lockHeldError(last?.record?.owner ?? unknownLockOwner('unknown'), path);
  } catch (error) {
    heldInProcess.delete(path);
    throw error;
  }
}

/** A held local lock; release rewrites the record as released, only while it still names us. */
class LocalLock implements Lock {
  private releasing: Promise<void> | undefined;

  constructor(
    private readonly path: string,
    readonly owner: LockOwner,
    private readonly held: Uint8Array,
  ) {}

  release(): Promise<void> {
    this.releasing ??= this.doRelease();
    return this.releasing;
  }

  private async doRelease(): Promise<void> {
    try {
      // Nobody replaces a live holder's record, so if it is still ours it stays ours until renamed.
      const now = await readIfExists(this.path);
      if (now !== undefined && sameBytes(now.bytes, this.held)) {
        await replace(this.path, encodeReleasedLock(this.owner, new Date().toISOString()));
      }
    } finally {
      if (heldInProcess.get(this.path) === this.owner) heldInProcess.delete(this.path);
    }
  }
}

/**
 * Creates the claim on the record `target` for `held`: the list of claim files to remove once the
 * transition is done, undefined to start over, or throws `lock_held` when a live process is
 * making the same transition right now.
 */
async function claim(lockPath: string, target: Uint8Array, held: Uint8Array, depth: number): Promise<string[] | undefined> {
  const name = join(dirname(lockPath), lockClaimFile(basename(lockPath), hashOf(target)));
  if (await placeExclusive(name, held)) return [name];
  const other = await readIfExists(name);
  if (other === undefined) return undefined; // its creator finished or gave up: look again
  if (other.record !== undefined && !isGone(other.record.owner)) throw lockHeldError(other.record.owner, lockPath);
  if (depth >= MAX_CLAIM_DEPTH) throw lockHeldError(other.record?.owner ?? unknownLockOwner('unknown'), lockPath);
  // Its creator died while claiming: take over its claim, and remove it once done.
  const deeper = await claim(lockPath, other.bytes, held, depth + 1);
  return deeper === undefined ? undefined : [...deeper, name];
}

/** Puts `bytes` at `path` whole, only if `path` does not exist: temp file, fsync, link. */
async function placeExclusive(path: string, bytes: Uint8Array): Promise<boolean> {
  const temp = await writeTemp(path, bytes);
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    await unlinkQuietly(temp);
  }
}

/** Replaces `path` with `bytes` whole: temp file, fsync, rename. */
async function replace(path: string, bytes: Uint8Array): Promise<void> {
  const temp = await writeTemp(path, bytes);
  try {
    await rename(temp, path);
  } catch (error) {
    await unlinkQuietly(temp);
    throw error;
  }
}

/** Lock temp files this process has named (their names count them). */
let tempCount = 0;

async function writeTemp(path: string, bytes: Uint8Array): Promise<string> {
  // Unique among live processes on this host by the pid and within this one by the count; the
  // random part keeps apart processes on hosts sharing the directory. Math.random, not
  // node:crypto, whose loading was ~10 ms on the way to a new index's first chunk (issue 17): a
  // clash only fails the exclusive open, it cannot mix two records.
  const id = `${process.pid}-${(tempCount++).toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const temp = join(dirname(path), lockTempFile(basename(path), id));
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

async function readIfExists(path: string): Promise<Found | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  return { bytes, record: decodeLockRecord(bytes) };
}

async function mtimeOf(path: string): Promise<string> {
  return stat(path).then((s) => s.mtime.toISOString(), () => 'unknown');
}

/**
 * Whether a holder is provably gone. A holder on another host cannot be checked, so it is live.
 * Our own pid is a previous process that had the same pid (heldInProcess was checked).
 */
function isGone(owner: LockOwner): boolean {
  if (owner.hostname !== hostname()) return false;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(error) === 'ESRCH';
  }
}

function hashOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}

async function unlinkQuietly(path: string): Promise<void> {
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
