#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TOP_PAD_=4194304 node
/**
 * The `yarrow` executable (package.json "bin", dist/cli.cjs once built): runs the CLI on this process's argv, streams and
 * signals, then exits with its code.
 *
 * The modes that index tune V8 for memory the way a JVM service ships its jvm.options: 4 MB
 * semi-spaces and a heap that grows 25% past the live data between full collections (V8 lets it
 * grow up to 4x). Most of what indexing allocates is short-lived (parsed JSON, tokens), so with
 * V8's defaults the RSS of a bulk load sits at several times its live heap; see
 * docs/architecture.md "Memory". Those flags are set here at run time, not on the shebang line:
 * any V8 flag there made V8 reject the code caches of all of node's built-in modules, in every
 * mode (src/cli/start-v8-flags.ts).
 *
 * MALLOC_MMAP_THRESHOLD_ pins glibc's mmap threshold at its default 128 KiB (other C libraries
 * ignore it). Unpinned, glibc raises the threshold to the size of every large block freed, up to
 * 32 MiB, so after the first flushed segment or merge output (megabytes of ArrayBuffer, often
 * freed on another thread than the one that allocated it) buffers of that size come from malloc's
 * arenas instead of their own mappings, and the arenas fragment: measured with
 * bench/index-memory.bench.ts on 145 MB of 10 KB documents, peak RSS 323 MB unpinned, 285 pinned.
 *
 * MALLOC_TOP_PAD_ keeps 4 MiB spare at the top of each malloc arena when it grows or trims. With
 * glibc's default (128 KiB), memory freed by V8's compiler and GC helper threads went back to the
 * kernel after each job and was faulted in again by the next: a third of a bulk load's page
 * faults. Measured on `index file` of the npm corpus: system CPU 0.48 -> 0.31 s, wall -8%, peak
 * RSS +20 MB (issue 17).
 */
import module from 'node:module';
import { START_V8_FLAGS_ENV, startV8FlagsOf } from './cli/start-v8-flags.js';
import { markStartup } from './cli/startup-trace.js';

markStartup('entry');

/**
 * Runs the CLI. A function, not top-level code: the executable is a CommonJS file (dist/cli.cjs,
 * scripts/build-cli.ts), which has no top-level await, so that node starts it without its ES
 * module loader (~5 ms of CPU, issue 17).
 */
async function main(): Promise<void> {
  // First of all, before any code cache is read (src/cli/start-v8-flags.ts).
  const startFlags = startV8FlagsOf(process.argv.slice(2));
  if (startFlags.length > 0) {
    (await import('node:v8')).setFlagsFromString(startFlags.join(' '));
    process.env[START_V8_FLAGS_ENV] = startFlags.join(' ');
  } else {
    // Not inherited from a parent process that set its own.
    Reflect.deleteProperty(process.env, START_V8_FLAGS_ENV);
  }
  // `index file` starts its bulk-load threads first: their start-up is longer than the rest of the
  // way to the first chunk, which it now overlaps (src/cli/bulk-prestart.ts, issue 17).
  if (process.argv[2] === 'index' && process.argv[3] === 'file') (await import('./cli/bulk-prestart.js')).startBulkThreadsEarly();

  // Node >= 22.1 keeps V8's compiled code of every module in a cache directory (the OS temp dir, or
  // NODE_COMPILE_CACHE), so a second start skips compiling the ~2 MB of bundled chunks a server mode
  // loads (scripts/build-cli.ts bundles this file into dist/cli.cjs; issue 17). Node 20 has no such
  // API; there the call is skipped. It has to run before the CLI is imported, hence the dynamic import.
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  const { runCli } = await import('./cli/index.js');
  markStartup('cli loaded');

  const controller = new AbortController();
  const onSignal = (): void => {
    // A second signal means "now": exit without waiting for the rollback.
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const code = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, signal: controller.signal });
  if (process.env.YARROW_REPORT_MAX_RSS === '1') {
    // For benchmarks: peak resident set size of the whole run, in bytes, and its CPU time.
    const usage = process.resourceUsage();
    process.stderr.write(`max_rss_bytes=${usage.maxRSS * 1024}\ncpu_ms=${Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000)}\n`);
  }
  process.exit(code);
}

void main();
