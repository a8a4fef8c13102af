/**
 * The bulk-load threads of `yarrow index file`, started as early as the process can (issue 17).
 * A thread's start (an isolate, node's bootstrap, the bundled code) takes longer than this thread
 * takes to load the modes, read the config and open the index, so the first chunk waited for the
 * threads: src/cli.ts starts them from its first lines when argv names `index file`, and the mode
 * takes them over through {@link bundledBulkWorker}.
 *
 * The bundled CLI holds this module twice (the ES entry and the CommonJS modes file, see
 * scripts/build-cli.ts), so the threads started early are handed over through a global, not a
 * module variable. Outside the bundled CLI (tsc's output, tests) nothing starts early and the
 * threads start from tsc's output as the engine starts them.
 */
import { Worker } from 'node:worker_threads';
import type { BulkWorkerStarter } from '../engine/index.js';
import { setV8BooleanFlagUntilExit, setV8FlagUntilExit } from './run-time-v8-flag.js';
import { INDEXING_V8_FLAGS, INDEXING_YOUNG_GENERATION_MB } from './start-v8-flags.js';

/** Threads that parse and invert files: the machine's cores, the main thread reads and commits between them. */
export const BULK_THREADS = 2;

/**
 * The file name of the bundled bulk-load thread's entry (dist/cli-worker-bulk-entry-<hash>.cjs),
 * which scripts/build-cli.ts defines in both bundles; undeclared (typeof: 'undefined') in tsc's output.
 */
declare const YARROW_BULK_WORKER_BUNDLE: string | undefined;

/** A thread started before the mode took it. */
interface EarlyThread {
  readonly worker: Worker;
  /** Set when it died before the mode took it. */
  failed: boolean;
}

/**
 * The `workerData` of a bundled bulk-load thread (src/cli/bulk-worker-entry.ts). `loaded[0]`
 * counts the threads that have loaded their code; each takes the count before its own as its
 * order, and the first (order 0) writes the bundle's code cache.
 */
export interface BulkThreadStart {
  readonly loaded: Int32Array;
}

/** Where the threads started early wait for the mode (shared by both copies of this module). */
const EARLY = Symbol.for('yarrow.earlyBulkThreads');
/** The {@link BulkThreadStart.loaded} count of this process's threads (shared like {@link EARLY}). */
const LOADED = Symbol.for('yarrow.bulkThreadsLoaded');

function earlyThreads(): EarlyThread[] {
  const shared = globalThis as unknown as Record<symbol, EarlyThread[] | undefined>;
  return (shared[EARLY] ??= []);
}

function loadedCount(): Int32Array {
  const shared = globalThis as unknown as Record<symbol, Int32Array | undefined>;
  return (shared[LOADED] ??= new Int32Array(new SharedArrayBuffer(4)));
}

/** `Atomics.waitAsync` (Node >= 16; ES2024, past the ES2023 library this project compiles against). */
interface AtomicsWaitAsync {
  waitAsync(array: Int32Array, index: number, value: number): { readonly async: false; readonly value: string } | { readonly async: true; readonly value: Promise<string> };
}

/**
 * Sets the indexing heap flags ({@link INDEXING_V8_FLAGS}, which `index file` does not set at start,
 * see `startV8FlagsOf`) once `threads` bulk threads have loaded their code, and back at exit (the
 * code caches written at exit are checked under the start's flags). Until then every isolate of
 * the process compiles under node's own flags and takes node's code caches of its built-in
 * modules; the bulk threads get their 4 MB semi-spaces from `resourceLimits` instead. Nothing
 * waits for this: the threads' start-up overlaps the rest of the way to the first chunk.
 */
function setIndexingFlagsOnceLoaded(threads: number): void {
  const loaded = loadedCount();
  const count = Atomics.load(loaded, 0);
  if (count >= threads) {
    for (const flag of INDEXING_V8_FLAGS) {
      const [name, value] = flag.slice(2).split('=');
      setV8FlagUntilExit(name, value, '0');
    }
    return;
  }
  // Does not hold the process: the CLI exits when its mode is done (and a thread that died does not count).
  const wait = (Atomics as unknown as AtomicsWaitAsync).waitAsync(loaded, 0, count);
  void (wait.async ? wait.value : Promise.resolve()).then(() => { setIndexingFlagsOnceLoaded(threads); });
}

/**
 * Starts one bundled thread, or returns undefined outside the bundled CLI. The thread compiles its
 * optimised code itself rather than on V8's shared helper threads (`--no-concurrent-recompilation`
 * for the isolates created from now on, as `compileOnWorkerThreads` does for the servers' threads).
 * A bulk thread's code is optimised while a load runs, its write-out (twice a thread) late, and
 * much of it again after deoptimisations: ~245 TurboFan compilations per thread in an npm load.
 * Per-thread CPU read from /proc (issue 17): V8's helper threads held ~1.85 s of an npm load's
 * CPU, beside ~1.3-1.5 s per bulk thread; compiling on the threads themselves, the helpers' share
 * fell to ~0.3 s and `index file`'s user+sys by ~9% (docs/performance.md, "Eighth pass"), while
 * the threads no longer run slow code until a helper gets to it. The event loop's isolate, created
 * earlier, still compiles concurrently. The flag is not in the hash that stamps code caches.
 */
function startBundled(): Worker | undefined {
  if (typeof YARROW_BULK_WORKER_BUNDLE !== 'string') return undefined;
  setV8BooleanFlagUntilExit('concurrent-recompilation', false, true);
  const workerData: BulkThreadStart = { loaded: loadedCount() };
  // import.meta.url is that of dist/cli/bulk-prestart.js in either bundle (scripts/build-cli.ts).
  return new Worker(new URL(`../${YARROW_BULK_WORKER_BUNDLE}`, import.meta.url), {
    workerData,
    resourceLimits: { maxYoungGenerationSizeMb: INDEXING_YOUNG_GENERATION_MB },
  });
}

/**
 * Starts the {@link BULK_THREADS} threads of `index file` now, for {@link bundledBulkWorker} to hand
 * over. They wait unreferenced (a run that ends before the mode takes them, `--help` or a usage
 * error, still exits), and one that dies meanwhile is only dropped.
 */
export function startBulkThreadsEarly(): void {
  const early = earlyThreads();
  while (early.length < BULK_THREADS) {
    const worker = startBundled();
    if (worker === undefined) return;
    const thread: EarlyThread = { worker, failed: false };
    worker.unref();
    worker.on('error', () => { thread.failed = true; });
    worker.on('exit', () => { thread.failed = true; });
    early.push(thread);
  }
  if (early.length > 0) setIndexingFlagsOnceLoaded(BULK_THREADS);
}

/**
 * Starts a bundled bulk-load thread, the ones {@link startBulkThreadsEarly} started first, or
 * undefined outside the bundled CLI: then the engine starts the threads from tsc's output.
 */
export function bundledBulkWorker(): BulkWorkerStarter | undefined {
  if (typeof YARROW_BULK_WORKER_BUNDLE !== 'string') return undefined;
  return () => {
    const early = earlyThreads();
    for (let t = early.shift(); t !== undefined; t = early.shift()) {
      if (!t.failed) return t.worker;
      void t.worker.terminate();
    }
    return startBundled()!;
  };
}
