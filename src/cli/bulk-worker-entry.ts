/**
 * Entry of the bundled bulk-load thread of `yarrow index file`: scripts/build-cli.ts bundles
 * src/engine/commit/bulk-load-worker.ts and all it imports into one CommonJS file,
 * dist/cli-worker-bulk-load-<hash>.cjs, which this module loads with V8's code cache as
 * src/cli/vendored.ts does the modes. Started from tsc's output, the thread resolved, read and
 * compiled ~170 modules first: ~100 ms of each thread at the start of every load, while the other
 * cores waited (issue 17).
 *
 * This module is itself bundled, with vendored.ts, into a small CommonJS file,
 * dist/cli-worker-bulk-entry-<hash>.cjs, which the thread starts from: a thread started from an
 * ES module first sets up node's ES module loader and resolves, reads and links this module and
 * vendored.ts, a start-up cost on the way to the first chunk that a CommonJS entry does not pay.
 *
 * The cache is written after the thread's first flush request, by when the code of both indexing
 * and encoding has run (a terminated worker runs no `exit` handler).
 */
import v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import type { BulkThreadStart } from './bulk-prestart.js';
import { INDEXING_V8_FLAGS } from './start-v8-flags.js';
import { loadVendoredInWorker } from './vendored.js';

/**
 * The file name of the bundled thread code, which scripts/build-cli.ts defines when it bundles
 * this entry; undeclared (typeof: 'undefined') in tsc's output, which takes it from the argv.
 */
declare const YARROW_BULK_WORKER_CODE: string | undefined;

/**
 * Gives a throwaway Uint8Array another prototype, as node does to every Buffer its C++ makes
 * (`Buffer::New`: a Uint8Array whose prototype is then set to Buffer's), before any of this
 * thread's code is optimised.
 *
 * Why: the first such change in an isolate makes V8's Uint8Array map unstable, and every
 * optimised function that relied on its stability instead of checking it is thrown away. The
 * thread's first native Buffer is the code cache `writeCodeCache` makes (`createCachedData`)
 * during its first flush, in a run that writes the cache (the first after a build or under new
 * flags): about a dozen functions of the line reader, the stored fields and the tokenizer (`read`,
 * `scan`, `copyLine`, `scanString`, `flushBlock`, `scanAscii`, ...) were marked "code
 * dependencies" at once and compiled again for the rest of the load (issue 17). Changed first,
 * the map is unstable before anything is compiled, and each function is compiled once, checking it.
 */
Object.setPrototypeOf(new Uint8Array(0), Buffer.prototype as object);

const bundle = typeof YARROW_BULK_WORKER_CODE === 'string' ? YARROW_BULK_WORKER_CODE : process.argv[process.argv.length - 1];
const start = workerData as Partial<BulkThreadStart> | null;
// V8 stamps a code cache with the flags in effect: those the bundle's cache was checked under.
const loadTag = v8.cachedDataVersionTag();
const { writeCodeCache } = loadVendoredInWorker(bundle);
// Loaded: counted for the flags that wait for the threads' start (bulk-prestart.ts); the first writes the cache.
const order = start?.loaded instanceof Int32Array ? Atomics.add(start.loaded, 0, 1) : 0;
if (start?.loaded instanceof Int32Array) Atomics.notify(start.loaded, 0);
let written = order > 0;
parentPort?.on('message', (message: { readonly type?: unknown }) => {
  if (written || message.type !== 'flush') return;
  written = true;
  // After the flush this message asks for, which runs in the same turn or soon after.
  setTimeout(writeUnderLoadFlags, 0);
});

/**
 * Writes the bundle's code cache stamped with the flags it was loaded under. By the first flush
 * the main thread has set the indexing heap flags (bulk-prestart.ts), under which the next
 * start, checking before them, would reject the cache: they are put back to V8's defaults for
 * the write, and on again after it. Only this thread does so (order 0), and the stamp is checked
 * first: flags given on node's command line, not defaults, leave the cache unwritten.
 */
function writeUnderLoadFlags(): void {
  if (v8.cachedDataVersionTag() === loadTag) {
    writeCodeCache();
    return;
  }
  v8.setFlagsFromString(INDEXING_V8_FLAGS.map((f) => f.replace(/=.*/, '=0')).join(' '));
  try {
    if (v8.cachedDataVersionTag() === loadTag) writeCodeCache();
  } finally {
    v8.setFlagsFromString(INDEXING_V8_FLAGS.join(' '));
  }
}
