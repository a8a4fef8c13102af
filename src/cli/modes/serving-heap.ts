/**
 * V8 heap tuning of the server modes (`api`, `search`, `standalone`), set by the product itself
 * rather than left to how node was started.
 *
 * The `yarrow` executable's shebang (src/cli.ts) lets the heap grow only 25% past the live data
 * between full collections, which keeps a bulk load's RSS bounded. V8 also counts every
 * ArrayBuffer allocated since the last full collection against that limit, and a server's event
 * loop allocates them all the time over a small (~20 MB) heap: socket chunks, `_index` bodies
 * handed to the inversion thread, write-ahead log records, flushed segment files, decompressed
 * stored-field blocks. With 25% the main thread ran a full mark-compact several times a second,
 * each one a pause every search waiting behind it sees (issue 17: search p99 while `api`
 * indexes; measured with `npm run bench:http`, the server's --trace-gc over the last 9 s of
 * indexing: 14 mark-compacts, 277 ms of pauses with 25%; 7 and 120 ms with V8's own growing
 * factor). V8's own factor still left the event loop ~7-13 mark-compacts per 10 s of `_index` at
 * full speed (pauses of 5-50 ms, the longest when helper threads were busy) though it promoted
 * only ~5 MB meanwhile: the array buffers passing through set the pace. At 200% it is about one
 * (100%: ~4; 300%: none, but the server's peak RSS +50 MB). The flag is read at each collection,
 * so setting it at run time takes effect at once; it is process-wide, so the inversion and merge
 * threads' heaps grow by 200% too (fewer of their collections too, whose marking runs on V8's
 * helper threads).
 *
 * Scavenges are made single-threaded (`--no-parallel-scavenge`, also read at each collection):
 * the inversion thread scavenges its young generation 20-40 times a second while `_index` runs,
 * and in parallel each one took V8's helper threads, which run at normal priority, so the event
 * loop shared its core with them however low the inversion thread's own priority. Single-
 * threaded, a thread's scavenges run on the thread itself, at its priority; the event loop's own
 * young generation (4 MB, mostly garbage) takes a millisecond or two alone. Measured with
 * bench:http: the server's normal-priority CPU besides the event loop, per 1k documents indexed,
 * ~21-27 ms -> ~13-16 ms.
 */
import { setV8BooleanFlagUntilExit, setV8FlagUntilExit } from '../run-time-v8-flag.js';

/** How far a server's heaps grow past their live data between full collections (see the module comment). */
export const SERVING_HEAP_GROWING_PERCENT = 200;

/** Sets a long-running server's heap growing and single-threaded scavenges (see the module comment). */
export function tuneHeapForServing(): void {
  setV8FlagUntilExit('heap-growing-percent', String(SERVING_HEAP_GROWING_PERCENT), '0');
  setV8BooleanFlagUntilExit('parallel-scavenge', false, true);
}

/**
 * Makes the worker threads a server starts from now on (the writer's inversion and merge threads)
 * compile their optimised code themselves, at their own low priority, instead of on V8's shared
 * helper threads, which run at the event loop's priority (issue 17: search p99 while `api`
 * indexes). Call it before the indexes open; the event loop's own isolate is not affected.
 *
 * Why: sampled with `perf record` during `npm run bench:http`'s search at 100 q/s while indexing,
 * V8's helper threads held ~12% of the server's CPU samples at nice 0, 60% of it TurboFan jobs of
 * the inversion thread (~200 optimisations in 8 s: its write-out code runs once per flush, so it
 * is optimised late and again after each deoptimisation), on two cores where the event loop has
 * to share a core with whatever else runs at its priority. Lowering the helpers' priority instead
 * is no option: the event loop's own full collections wait on them (a mark-compact measured at
 * 124 ms, 116 of them asleep, with the helpers at nice 10 on a loaded machine).
 *
 * How: V8 decides whether an isolate compiles concurrently when the isolate is created, from
 * `--concurrent-recompilation`; the flag set at run time leaves the running isolate concurrent,
 * and every isolate created later (a worker's) compiles on its own thread. The flag is put back
 * at exit, before the code caches are written (`run-time-v8-flag.ts`).
 */
export function compileOnWorkerThreads(): void {
  setV8BooleanFlagUntilExit('concurrent-recompilation', false, true);
}

/**
 * Makes every isolate of a writing server mark its heap on its own thread: V8 starts no concurrent
 * marking job on its helper threads (`--no-concurrent-marking`, read at each marking start), so
 * the inversion and merge threads' major collections mark at those threads' own low priority,
 * and the event loop marks its small heap (~20-30 MB, about one major collection per 10 s of
 * `_index` at full speed with the 200% growing factor above) in incremental steps of its own. The
 * atomic pause still marks in parallel on the helpers (`--parallel-marking`), so no pause grows.
 *
 * Why: V8's helper threads run at normal priority. Sampled with `perf record` while bench:http
 * searched at 100 q/s and indexed at full speed, concurrent marking was their largest job beside
 * TurboFan jobs of the event loop's own code; a scheduler trace (bench/http/sched-trace.ts) put
 * them on the core the event loop was queued on during 22-38% of its waits over 0.5 ms (issue 17:
 * search p99 while `api` indexes). With the flag, the server's normal-priority CPU besides the
 * event loop fell from 6.3-9.0 to 3.3-5.3 ms per 1k documents indexed (3 runs each), the event
 * loop's own stayed at 1.4-1.7 s per 8 s run, and the background threads' rose ~5%.
 * Parallel marking in the atomic pause stays on (and must: V8 gives an isolate created with
 * neither flag no marking worklists for its helpers, and the flags are put back at exit).
 *
 * Only for a server that writes: a search-only server has no background isolates, and its event
 * loop would mark alone for nothing.
 */
export function markOnCollectingThreads(): void {
  setV8BooleanFlagUntilExit('concurrent-marking', false, true);
}
