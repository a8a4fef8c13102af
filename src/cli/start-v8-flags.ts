/**
 * The V8 heap flags of the modes that index, set by the `yarrow` executable at run time as its
 * first step instead of on its shebang line (issue 17: process start to first answer).
 *
 * Why not on the shebang: V8 stamps every code cache with a hash of the flags in effect and rejects
 * one made under other flags, and node ships its built-in modules (http, net, fs/promises, the ES
 * module loader, ...) with code caches made under none. With `--max-semi-space-size=4
 * --heap-growing-percent=25` on the shebang, all of them were rejected (NODE_DEBUG_NATIVE=CODE_CACHE:
 * 115 of 115 in a `yarrow search` start) and compiled from source on every start of every mode:
 * ~40 ms of CPU of `yarrow search`'s ~240 to its first answer, ~10 ms of `yarrow --help`.
 *
 * Set at run time, the flags count for what the indexing modes need them for:
 * - `--heap-growing-percent` is read at each full collection, so it holds at once (the server modes
 *   raise it again, serving-heap.ts);
 * - `--max-semi-space-size` is read when an isolate is created: every worker thread started later
 *   (the bulk-load, inversion and merge threads, where indexing allocates) gets 4 MB semi-spaces;
 *   the event loop's own isolate, made before any JavaScript runs, keeps V8's default (up to 16 MB).
 *
 * `yarrow search` and commander-only runs (`--help`, `--version`, usage errors) set none, so they
 * start under node's own flags and use its code caches. The indexing modes set theirs before
 * anything else loads, so every code cache they read or write (src/cli/vendored.ts, node's compile
 * cache) is made and checked under the same flags; vendored.ts keys its cache directory by them too,
 * so that modes with and without them do not replace each other's caches.
 */

/** The most a semi-space of an indexing thread grows to, in MB (V8's default: 16). */
export const INDEXING_SEMI_SPACE_MB = 4;

/** The heap flags of the modes that index (see the module comment). */
export const INDEXING_V8_FLAGS: readonly string[] = [`--max-semi-space-size=${String(INDEXING_SEMI_SPACE_MB)}`, '--heap-growing-percent=25'];

/**
 * The young generation of a worker thread whose semi-spaces grow to {@link INDEXING_SEMI_SPACE_MB}
 * (Worker's `resourceLimits.maxYoungGenerationSizeMb`): V8 sizes it as two semi-spaces and a new
 * large-object space of one semi-space each (V8 11.3 and 13.x alike), so a thread started with it
 * gets the semi-spaces of `--max-semi-space-size` without the flag.
 */
export const INDEXING_YOUNG_GENERATION_MB = 3 * INDEXING_SEMI_SPACE_MB;

/**
 * The environment variable through which the entry tells the rest of the process (the CommonJS
 * modes file's copy of the code, worker threads) which flags it set at start: V8's flags are
 * process-wide and cannot be read back from JavaScript.
 */
export const START_V8_FLAGS_ENV = 'YARROW_START_V8_FLAGS';

/**
 * The flags `yarrow <argv...>` sets at start: {@link INDEXING_V8_FLAGS} for `index ...` (but `index
 * file`), `api` and `standalone`, none for `search` and anything else (commander handles help and
 * usage errors).
 *
 * `index file` sets them later, once its bulk-load threads have loaded their code
 * (src/cli/bulk-prestart.ts): every thread's isolate compiles node's built-in modules it loads
 * (worker_threads, streams, fs, the CommonJS loader, ~140 of them), and with the flags already set
 * V8 rejected the code caches node ships for them and compiled them from source (issue 17: 136 of
 * 293 rejected in an npm load, `compileForInternalLoader` 2-3% of each bulk thread's CPU).
 */
export function startV8FlagsOf(argv: readonly string[]): readonly string[] {
  const mode = argv[0];
  if (mode === 'index' && argv[1] === 'file') return [];
  return mode === 'index' || mode === 'api' || mode === 'standalone' ? INDEXING_V8_FLAGS : [];
}

/**
 * The flags this process's entry set at start (from {@link START_V8_FLAGS_ENV}), to be counted
 * with node's own options wherever the flags in effect matter (code cache keys, a flag's start
 * value).
 */
export function startV8Flags(): string[] {
  const value = process.env[START_V8_FLAGS_ENV];
  return value === undefined || value === '' ? [] : value.split(' ');
}
