/**
 * The write lock of an index in a bucket, as a lease: an object created with `If-None-Match: *`
 * (so two writers cannot both create it) holding the owner and an expiry, and renewed before it
 * expires with `If-Match: <etag>` (so a writer whose lease was taken over learns it at its next
 * renewal instead of overwriting the new holder's). A lease past its expiry is stale: its holder
 * stopped renewing (crashed, or cut off), so another writer reports it and takes it over, again
 * with `If-Match` so that only one of several contenders wins.
 *
 * Expiry is compared with the local clock: hosts sharing an index must keep their clocks within a
 * fraction of the TTL of each other (NTP).
 */
import type { Lock, LockOwner } from '../../engine/directory.js';
import { ErrorCode, YarrowError } from '../../engine/errors.js';
import { decodeLockRecord, lockHeldError } from '../lock-owner.js';
import { isNotFound, isPreconditionFailed } from './s3-object-store.js';
import type { S3ObjectStore } from './s3-object-store.js';

/** Timing of a lease. */
export interface LeaseOptions {
  /** How long a lease lives without renewal. */
  readonly ttlMs: number;
  /** Called once when the lease is lost (taken over, deleted, or not renewed in time). */
  readonly onLost?: (reason: string) => void;
}

interface LeaseBody {
  owner: LockOwner;
  expiresAt: number;
  /** Released by its holder (the lease object stays, like the lock file of a local index). */
  released: boolean;
}

function encode(owner: LockOwner, expiresAt: number): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ pid: owner.pid, hostname: owner.hostname, since: owner.since, expiresAt }));
}

function encodeReleased(owner: LockOwner): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ state: 'released', pid: owner.pid, hostname: owner.hostname, since: owner.since, expiresAt: 0, releasedAt: new Date().toISOString() }));
}

function decode(bytes: Uint8Array): LeaseBody | undefined {
  const record = decodeLockRecord(bytes);
  if (record === undefined) return undefined;
  const { expiresAt } = JSON.parse(new TextDecoder().decode(bytes)) as { expiresAt?: unknown };
  return typeof expiresAt === 'number' ? { owner: record.owner, expiresAt, released: record.state === 'released' } : undefined;
}

/** A held lease, renewed in the background at a third of its TTL until released or lost. */
export class S3Lease implements Lock {
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;
  private lostReason: string | null = null;
  private released = false;

  private constructor(
    private readonly store: S3ObjectStore,
    private readonly name: string,
    readonly owner: LockOwner,
    private readonly options: LeaseOptions,
    private etag: string,
    /** Until when the last successful write of the lease holds it (local clock). */
    private validUntil: number,
  ) {
    this.timer = setInterval(() => { void this.renew(); }, Math.max(1, Math.floor(options.ttlMs / 3)));
    this.timer.unref();
  }

  /**
   * Takes the lease `name`; rejects with `lock_held` naming a live holder. A released lease is taken
   * over silently; one whose holder let it expire, or whose content is unreadable, is reported to
   * `onStale` and taken over.
   */
  static async obtain(
    store: S3ObjectStore,
    name: string,
    owner: LockOwner,
    options: LeaseOptions,
    onStale?: (stale: LockOwner) => void,
  ): Promise<S3Lease> {
    const where = store.describe(name);
    for (let attempt = 0; attempt < 5; attempt++) {
      const expiresAt = Date.now() + options.ttlMs;
      try {
        const etag = await store.put(name, encode(owner, expiresAt), { ifNoneMatch: '*' });
        return new S3Lease(store, name, owner, options, etag, expiresAt);
      } catch (error) {
        if (!isPreconditionFailed(error)) throw error;
      }
      let current;
      try {
        const got = await store.get(name);
        current = got === 'not-modified' ? undefined : got;
      } catch (error) {
        // Released between our PUT and GET: try creating it again.
        if (error instanceof YarrowError && error.code === ErrorCode.fileNotFound) continue;
        throw error;
      }
      if (current === undefined) continue;
      const body = decode(current.bytes);
      if (body !== undefined && !body.released && body.expiresAt > Date.now()) throw lockHeldError(body.owner, where);
      if (body?.released !== true) onStale?.(body?.owner ?? { pid: 0, hostname: 'unknown', since: new Date(0).toISOString() });
      const takeOverExpiry = Date.now() + options.ttlMs;
      try {
        const etag = await store.put(name, encode(owner, takeOverExpiry), { ifMatch: current.etag });
        return new S3Lease(store, name, owner, options, etag, takeOverExpiry);
      } catch (error) {
        // Someone else renewed or took it over meanwhile: look again.
        if (!isPreconditionFailed(error) && !isNotFound(error)) throw error;
      }
    }
    throw new YarrowError(ErrorCode.lockHeld, `could not take the lease ${where}: it kept changing under contention`, { source: where });
  }

  /** Whether the lease is still ours: not released, not lost, and not past its expiry. */
  get valid(): boolean {
    return !this.released && this.lostReason === null && Date.now() < this.validUntil;
  }

  /**
   * Throws `lock_held` unless the lease is held with at least half its TTL to go, renewing first
   * when less is left: called before publishing, so that a writer that lost its lease cannot.
   */
  async assertHeld(): Promise<void> {
    if (this.valid && this.validUntil - Date.now() < this.options.ttlMs / 2) await this.renew();
    if (!this.valid) {
      const reason = this.lostReason ?? (this.released ? 'it was released' : 'it expired before it could be renewed');
      this.markLost(reason);
      throw new YarrowError(
        ErrorCode.lockHeld,
        `the write lease ${this.store.describe(this.name)} is lost (${reason}); this writer stops and publishes nothing more`,
        { source: this.store.describe(this.name) },
      );
    }
  }

  /** Marks the lease object released if it is still ours (it stays in the bucket); idempotent. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.stopTimer();
    if (this.renewing !== null) await this.renewing;
    if (this.lostReason !== null) return;
    try {
      await this.store.put(this.name, encodeReleased(this.owner), { ifMatch: this.etag });
    } catch {
      // The lease expires by itself; nothing more to do.
    }
  }

  private renew(): Promise<void> {
    this.renewing ??= this.renewOnce().finally(() => { this.renewing = null; });
    return this.renewing;
  }

  private async renewOnce(): Promise<void> {
    if (this.released || this.lostReason !== null) return;
    if (Date.now() >= this.validUntil) {
      this.markLost('it expired before it could be renewed');
      return;
    }
    const expiresAt = Date.now() + this.options.ttlMs;
    try {
      this.etag = await this.store.put(this.name, encode(this.owner, expiresAt), { ifMatch: this.etag });
      this.validUntil = expiresAt;
    } catch (error) {
      if (isPreconditionFailed(error) || isNotFound(error)) this.markLost('another writer took it over or it was deleted');
      // Other failures (network) are retried at the next tick while the lease is still valid.
    }
  }

  private markLost(reason: string): void {
    if (this.lostReason !== null || this.released) return;
    this.lostReason = reason;
    this.stopTimer();
    this.options.onLost?.(reason);
  }

  private stopTimer(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
