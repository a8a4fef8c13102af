/**
 * Entry of the bundled bulk-load thread of `yarrow index file`: scripts/build-cli.ts bundles
 * src/engine/commit/bulk-load-worker.ts and all it imports into one CommonJS file,
 * dist/cli-worker-bulk-load-<hash>.cjs (named by the worker's argv), which this module loads with
 * V8's code cache as src/cli/vendored.ts does the modes. Started from tsc's output, the thread
 * resolved, read and compiled ~170 modules first: ~100 ms of each thread at the start of every
 * load, while the other cores waited (issue 17).
 *
 * The cache is written after the thread's first flush request, by when the code of both indexing
 * and encoding has run (a terminated worker runs no `exit` handler).
 */
import { parentPort } from 'node:worker_threads';
import { loadVendoredInWorker } from './vendored.js';

const bundle = process.argv[process.argv.length - 1];
const { writeCodeCache } = loadVendoredInWorker(bundle);
let written = false;
parentPort?.on('message', (message: { readonly type?: unknown }) => {
  if (written || message.type !== 'flush') return;
  written = true;
  // After the flush this message asks for, which runs in the same turn or soon after.
  setTimeout(writeCodeCache, 0);
});
