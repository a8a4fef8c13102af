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
 * factor). The flag is read at each collection, so setting it at run time takes effect at once;
 * it is process-wide, so the inversion and merge threads' heaps grow by V8's default factor too.
 */
import { setV8FlagUntilExit } from '../run-time-v8-flag.js';

/** Restores V8's dynamic heap growing factor for a long-running server (see the module comment). */
export function tuneHeapForServing(): void {
  setV8FlagUntilExit('heap-growing-percent', '0', '0');
}
