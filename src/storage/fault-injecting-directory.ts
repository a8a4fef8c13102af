/**
 * A {@link Directory} decorator that makes chosen calls fail like a broken disk (Lucene's
 * MockDirectoryWrapper): the one fake the tests allow, always wrapped around a real Directory so
 * everything that does not fail behaves exactly as the real thing.
 *
 * A failed call does nothing to the inner directory: the error is raised before delegating.
 */
import type { Appender, Directory, Lock, LockOwner, RandomAccessFile } from '../engine/directory.js';

/**
 * Operations that can be made to fail. `sync` counts both `Directory.sync` and `Appender.sync`
 * (both are an fsync); `append` is `Appender.append`.
 */
export type FaultOp = 'writeFile' | 'sync' | 'rename' | 'append' | 'delete';

/** One armed failure: the `nth` call (1-based, from arming) of `op` rejects with `error`. */
export interface FaultSpec {
  readonly op: FaultOp;
  readonly nth: number;
  /** Defaults to an `EIO` system error naming the operation. */
  readonly error?: Error;
}

/** Options of {@link FaultInjectingDirectory}. */
export interface FaultInjectingOptions {
  /** Failures armed from the start, as if passed to {@link FaultInjectingDirectory.failOn}. */
  readonly faults?: readonly FaultSpec[];
}

interface ArmedFault {
  readonly op: FaultOp;
  remaining: number;
  readonly error: Error | undefined;
}

/** Wraps a Directory and fails armed calls; see the module comment. */
export class FaultInjectingDirectory implements Directory {
  private armed: ArmedFault[] = [];
  /** Operations failing on every call until {@link clearFaults} (a disk that stays full). */
  private failing = new Map<FaultOp, Error | undefined>();
  private readonly calls = new Map<FaultOp, number>();
  /** The inner directory's positional reads, when it has them (the engine checks for the method). */
  readonly openRandomAccess?: (name: string) => Promise<RandomAccessFile>;

  constructor(
    /** The wrapped directory, for tests that inspect what reached it. */
    readonly inner: Directory,
    options: FaultInjectingOptions = {},
  ) {
    for (const fault of options.faults ?? []) this.failOn(fault.op, fault.nth, fault.error);
    if (inner.openRandomAccess !== undefined) this.openRandomAccess = inner.openRandomAccess.bind(inner);
  }

  /**
   * Makes the `nth` call of `op` from now on (1-based) reject with `error`, or by default an
   * `Error` with code `EIO`. The fault fires once; several faults may be armed at the same time.
   */
  failOn(op: FaultOp, nth: number, error?: Error): void {
    if (!Number.isSafeInteger(nth) || nth < 1) throw new RangeError(`nth must be a positive integer, got ${nth}`);
    this.armed.push({ op, remaining: nth, error });
  }

  /**
   * Makes every call of `op` from now on reject with `error` (default `EIO`) until
   * {@link clearFaults}: a condition that lasts, like a full disk, rather than one bad call.
   */
  failEvery(op: FaultOp, error?: Error): void {
    this.failing.set(op, error);
  }

  /** Disarms every fault that has not fired yet and ends every {@link failEvery}. */
  clearFaults(): void {
    this.armed = [];
    this.failing = new Map();
  }

  /** How many times `op` has been called through this wrapper (failed calls included). */
  callCount(op: FaultOp): number {
    return this.calls.get(op) ?? 0;
  }

  list(): Promise<string[]> {
    return this.inner.list();
  }

  exists(name: string): Promise<boolean> {
    return this.inner.exists(name);
  }

  readFile(name: string): Promise<Uint8Array> {
    return this.inner.readFile(name);
  }

  readRange(name: string, offset: number, length: number): Promise<Uint8Array> {
    return this.inner.readRange(name, offset, length);
  }

  async writeFile(name: string, data: Uint8Array): Promise<void> {
    this.trip('writeFile', name);
    await this.inner.writeFile(name, data);
  }

  async sync(names: readonly string[]): Promise<void> {
    this.trip('sync', names.join(', '));
    await this.inner.sync(names);
  }

  async rename(from: string, to: string): Promise<void> {
    this.trip('rename', `${from} -> ${to}`);
    await this.inner.rename(from, to);
  }

  async delete(name: string): Promise<void> {
    this.trip('delete', name);
    await this.inner.delete(name);
  }

  async openAppender(name: string): Promise<Appender> {
    const inner = await this.inner.openAppender(name);
    return new FaultInjectingAppender(inner, name, (op, detail) => {
      this.trip(op, detail);
    });
  }

  obtainLock(name: string, owner: LockOwner, onStale?: (stale: LockOwner) => void): Promise<Lock> {
    return this.inner.obtainLock(name, owner, onStale);
  }

  describe(): string {
    return `fault-injecting(${this.inner.describe()})`;
  }

  /** Counts a call of `op` and throws if an armed fault fires on it. */
  private trip(op: FaultOp, detail: string): void {
    this.calls.set(op, this.callCount(op) + 1);
    let fired: ArmedFault | undefined;
    for (const fault of this.armed) {
      if (fault.op !== op) continue;
      fault.remaining--;
      if (fault.remaining === 0) fired ??= fault;
    }
    this.armed = this.armed.filter((fault) => fault.remaining > 0);
    if (fired !== undefined) throw fired.error ?? ioError(op, detail);
    if (this.failing.has(op)) throw this.failing.get(op) ?? ioError(op, detail);
  }
}

/** An {@link Appender} whose append and sync go through the wrapper's faults. */
class FaultInjectingAppender implements Appender {
  constructor(
    private readonly inner: Appender,
    private readonly name: string,
    private readonly trip: (op: FaultOp, detail: string) => void,
  ) {}

  get size(): number {
    return this.inner.size;
  }

  async append(data: Uint8Array): Promise<void> {
    this.trip('append', this.name);
    await this.inner.append(data);
  }

  async sync(): Promise<void> {
    this.trip('sync', this.name);
    await this.inner.sync();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** An error shaped like Node's system errors, so code that inspects `code` sees a real EIO. */
function ioError(op: FaultOp, detail: string): Error {
  return Object.assign(new Error(`EIO: i/o error, ${op} '${detail}' (injected fault)`), {
    code: 'EIO',
    errno: -5,
    syscall: op,
  });
}
