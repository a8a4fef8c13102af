/**
 * What the engine's `worker_threads` workers share: starting one whose entry is a module of this
 * folder (from the built JavaScript or from source under tsx), a request/reply channel to it, and
 * the buffers a reply can transfer rather than copy.
 */
import { setPriority } from 'node:os';
import * as workerThreads from 'node:worker_threads';
import { Worker } from 'node:worker_threads';
import type { MessagePort, Transferable } from 'node:worker_threads';
import { installBackgroundPauser } from './foreground-gate.js';
import type { Directory } from '../directory.js';
import { idleSchedulingPolicy } from './thread-policy.js';

/** The `workerData` field that asks a background worker to lower its own priority (see {@link lowerThreadPriority}). */
export interface BackgroundThreadData {
  /** Nice value (0-19) the worker sets for its own thread at start; 0 or absent leaves it as is. */
  readonly nice?: number;
  /** The process's foreground gate (`foreground-gate.ts`): the worker pauses while searches run. */
  readonly gate?: SharedArrayBuffer;
  /** The writer's directory's files, for the worker to write and read itself (see {@link ThreadFilesSpec}). */
  readonly files?: ThreadFilesSpec;
}

/**
 * Synchronous access to the writer's directory from a background thread, which the thread's
 * `SCHED_IDLE` policy then pays for (the kernel's copies into and out of the page cache), instead
 * of libuv's pool at normal priority (issue 17: search p99 while `api` indexes).
 */
export interface ThreadFileAccess {
  /** Creates or replaces files, as `Directory.writeFile` does (not durable until the writer's sync). */
  write(files: Iterable<readonly [string, Uint8Array]>): void;
  /** Reads a whole file, or `length` bytes from `offset`, as `Directory.readFile` / `readRange` do. */
  read(name: string, offset?: number, length?: number): Uint8Array;
  /**
   * Appends `bytes` to the end of the existing file `name` (the write-ahead log, whose appender on
   * the writer's thread orders this call and fsyncs it later: see `Appender.appendFrom`).
   */
  append(name: string, bytes: Uint8Array): void;
}

/**
 * Where a background thread loads its {@link ThreadFileAccess} from: a module's URL (its export
 * `openThreadFiles(options)` makes one) and the options, which must survive a structured clone.
 * The engine names no file system module (`.dependency-cruiser.cjs`): the directory supplies it.
 */
export interface ThreadFilesSpec {
  readonly module: string;
  readonly options: unknown;
}

/** A {@link Directory} whose files a background thread may write and read itself (a local one). */
export interface ThreadFilesDirectory extends Directory {
  /** The spec a thread loads its access from (see {@link loadThreadFiles}). */
  threadFiles(): ThreadFilesSpec;
  /**
   * Tells the directory, on the writer's thread, that a background thread created `names`: their
   * directory entries are then made durable by the next `sync`, as if this thread had written them.
   */
  wroteOnThread(names: readonly string[]): void;
}

/** Whether a background thread may write and read `dir`'s files itself. */
export function hasThreadFiles(dir: Directory): dir is ThreadFilesDirectory {
  const candidate = dir as Partial<ThreadFilesDirectory>;
  return typeof candidate.threadFiles === 'function' && typeof candidate.wroteOnThread === 'function';
}

/** Inside a worker: loads the file access `spec` names (none without a spec). */
export async function loadThreadFiles(spec: ThreadFilesSpec | undefined): Promise<ThreadFileAccess | null> {
  if (spec === undefined) return null;
  const module = (await import(spec.module)) as { openThreadFiles(options: unknown): ThreadFileAccess };
  return module.openThreadFiles(spec.options);
}

/**
 * Inside a worker: lowers this thread's priority (see {@link lowerThreadPriority}) and makes it
 * pause at its safe points while searches run (`foreground-gate.ts`), as `data` asks.
 */
export function becomeBackgroundThread(data: BackgroundThreadData | null | undefined): void {
  lowerThreadPriority(data?.nice);
  installBackgroundPauser(data?.gate);
}

/**
 * Inside a worker: lowers this thread's scheduling priority to `nice`, so that on a machine with
 * few cores the event loop of the main thread wins the CPU whenever it has a request to answer,
 * and background work (inverting, merging) takes the cycles left over (issue 17: search latency
 * while indexing). Linux only: there `setpriority(PRIO_PROCESS, 0)` acts on the calling thread
 * alone (threads are tasks), which `os.setPriority(0, n)` calls; on macOS and Windows the same
 * call would lower the whole process, so it is skipped. Lowering needs no privilege; a failure
 * (a sandbox refusing it) only leaves the priority as it was. At 19, the lowest, the thread also
 * takes the `SCHED_IDLE` policy ({@link idleSchedulingPolicy}), so that a normal thread waking on
 * its core preempts it at once.
 */
export function lowerThreadPriority(nice: number | undefined, platform: NodeJS.Platform = process.platform): boolean {
  if (nice === undefined || nice <= 0 || platform !== 'linux') return false;
  const value = Math.min(19, Math.round(nice));
  try {
    setPriority(0, value);
  } catch {
    return false;
  }
  if (value === 19) idleSchedulingPolicy();
  return true;
}

/**
 * Inside a worker: hands each request arriving on `port` to `handle`, one after another. A flush
 * yields while it encodes, and a request for the next buffer must not run in the middle of it.
 */
export function handleRequestsInOrder(port: MessagePort, handle: (request: never) => Promise<void>): void {
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (request: unknown) => {
    // The owner's channel sends only the requests `handle` takes.
    queue = queue.then(() => handle(request as never));
  });
}

/**
 * Starts `<entry>.js` next to this module. Run from source under tsx (tests, benchmarks), this
 * module is TypeScript and a worker does not inherit tsx's loader: the worker registers it first,
 * then imports the TypeScript entry.
 */
export function startEngineWorker(entry: string, workerData: unknown): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${entry}.js`, import.meta.url), { workerData });
  const url = new URL(`./${entry}.ts`, import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(url)}); })`;
  return new Worker(code, { eval: true, workerData });
}

/**
 * Requests to a worker that answers every request with exactly one message, in request order. A
 * worker that dies (or that the owner declares failed) fails every pending and later request.
 */
export class WorkerChannel<Request, Reply> {
  private readonly pending: { resolve: (reply: Reply) => void; reject: (e: Error) => void }[] = [];
  private failure: Error | null = null;
  private stopping = false;

  constructor(
    private readonly worker: Worker,
    private readonly name: string,
  ) {
    // Idle, the worker must not keep the process alive; `request` holds it while replies are due.
    this.worker.unref();
    this.worker.on('message', (reply: Reply) => {
      const waiter = this.pending.shift();
      this.hold();
      waiter?.resolve(reply);
    });
    this.worker.on('error', (e: Error) => { this.fail(e); });
    this.worker.on('exit', (code) => { this.fail(new Error(`${this.name} exited (code ${code})`)); });
  }

  /** The error every request answers since the channel failed, or null. */
  get failed(): Error | null {
    return this.failure;
  }

  /** Sends a request (transferring `transfer`); resolves with its reply. */
  request(request: Request, transfer: readonly Transferable[] = []): Promise<Reply> {
    if (this.failure !== null) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.hold();
      this.worker.postMessage(request, transfer);
    });
  }

  /** Fails every pending and later request with `e` (the first failure stays). */
  fail(e: Error): void {
    this.failure ??= e;
    for (const waiter of this.pending.splice(0)) waiter.reject(this.failure);
    this.hold();
  }

  /** Stops the worker. */
  async terminate(): Promise<void> {
    this.fail(new Error(`${this.name} stopped`));
    this.stopping = true;
    this.hold();
    await this.worker.terminate();
  }

  /**
   * Keeps the process alive while a reply is due or the worker is being stopped (a promise waiting
   * on an unreferenced worker would let the process exit under it), and only then.
   */
  private hold(): void {
    if (this.stopping || this.pending.length > 0) this.worker.ref();
    else this.worker.unref();
  }
}

/**
 * The buffer `bytes` fills whole, which a message can transfer, or null: a view into a larger or
 * shared buffer must be copied instead (transferring it would hand over bytes that are not its own).
 */
export function wholeBuffer(bytes: Uint8Array): ArrayBuffer | null {
  const b = bytes.buffer;
  return b instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === b.byteLength ? b : null;
}

/** node >= 21 says which buffers it refuses to transfer (pooled ones); older versions copy them. */
const isMarkedAsUntransferable = (workerThreads as { isMarkedAsUntransferable?: (object: object) => boolean }).isMarkedAsUntransferable;

/**
 * Like {@link wholeBuffer}, and also null for a buffer node marks as untransferable (a slab of its
 * buffer pool, which a transfer list must not name).
 */
export function transferableBuffer(bytes: Uint8Array): ArrayBuffer | null {
  const b = wholeBuffer(bytes);
  return b === null || isMarkedAsUntransferable?.(b) === true ? null : b;
}

/**
 * The buffer of `bytes`, a view another thread handed over with its whole buffer (a record the
 * inversion thread built, spare room after it included), to hand back: null when it is not a
 * transferable buffer of its own (shared, or marked untransferable).
 */
export function handedOverBuffer(bytes: Uint8Array): ArrayBuffer | null {
  const b = bytes.buffer;
  return b instanceof ArrayBuffer && bytes.byteOffset === 0 && isMarkedAsUntransferable?.(b) !== true ? b : null;
}

/** The buffers of `files` that each file's bytes fill whole, to transfer (a view into a shared buffer is copied). */
export function transferableFiles(files: ReadonlyMap<string, Uint8Array>): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const bytes of files.values()) {
    const b = wholeBuffer(bytes);
    if (b !== null) buffers.add(b);
  }
  return [...buffers];
}

/** A background thread's failure as it crosses to the writer's thread: its text and system error code. */
export interface ThreadFailure {
  readonly message: string;
  /** The system error code (`ENOSPC`, `EIO`, ...) of a failed file access on the thread. */
  readonly code?: string;
}

/**
 * `error`, thrown on a background thread, as a message: its stack and, for a system error, its
 * code. A thread writing its own segment files (`ThreadFileAccess`) meets the disk's errors there,
 * and the writer words its failure from the code (`writer-failure.ts`: "disk full ... (ENOSPC)").
 */
export function threadFailure(error: unknown): ThreadFailure {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  const code = typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  return code === undefined ? { message } : { message, code };
}

/** The writer thread's error for a {@link threadFailure}: `prefix` and its text, with its code kept. */
export function threadFailureError(prefix: string, failure: ThreadFailure): Error {
  const error = new Error(`${prefix}: ${failure.message}`);
  return failure.code === undefined ? error : Object.assign(error, { code: failure.code });
}
