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
import { parentPort } from 'node:worker_threads';
import { loadVendoredInWorker } from './vendored.js';

/**
 * The file name of the bundled thread code, which scripts/build-cli.ts defines when it bundles
 * this entry; undeclared (typeof: 'undefined') in tsc's output, which takes it from the argv.
 */
declare const YARROW_BULK_WORKER_CODE: string | undefined;

const bundle = typeof YARROW_BULK_WORKER_CODE === 'string' ? YARROW_BULK_WORKER_CODE : process.argv[process.argv.length - 1];
const { writeCodeCache } = loadVendoredInWorker(bundle);
let written = false;
parentPort?.on('message', (message: { readonly type?: unknown }) => {
  if (written || message.type !== 'flush') return;
  written = true;
  // After the flush this message asks for, which runs in the same turn or soon after.
  setTimeout(writeCodeCache, 0);
});
