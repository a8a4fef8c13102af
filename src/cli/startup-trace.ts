/**
 * Start-up trace (issue 17): with YARROW_STARTUP_TRACE=1 the CLI writes one line to stderr at each
 * step from process start to a server's first answer, `startup <step> <ms since the process
 * started> cpu <ms of CPU, all threads> main <ms of CPU, this thread>`, so that the time to a first
 * answer can be split into its steps (module loading, config, index open, server set-up, first
 * request) without a profiler, whose sampling distorts a run this short. Off (the default) a mark
 * costs one comparison.
 *
 * The bundled CLI holds this module twice (the ES entry and the CommonJS modes file, see
 * scripts/build-cli.ts); it keeps no state, so both copies write the same kind of line.
 */

import { readFileSync } from 'node:fs';

/** Whether marks are written; read once, when the module loads. */
const tracing = process.env.YARROW_STARTUP_TRACE === '1';

/** Whether {@link markStartup} writes anything (callers may skip work that only feeds a mark). */
export function startupTracing(): boolean {
  return tracing;
}

/**
 * Writes the mark of `step`: milliseconds since the process started (`performance.now()`, whose
 * origin node sets as the process starts) and the CPU time the process has used (all threads).
 */
export function markStartup(step: string): void {
  if (!tracing) return;
  const cpu = process.cpuUsage();
  process.stderr.write(`startup ${step} ${performance.now().toFixed(1)} cpu ${((cpu.user + cpu.system) / 1000).toFixed(1)} main ${mainThreadCpuMs().toFixed(1)}\n`);
}

/**
 * CPU ms of this thread (the event loop) so far, from the scheduler's counter (Linux), or NaN. The
 * process figure also counts V8's compiler and GC helper threads and libuv's pool, which run beside
 * the event loop; this one is the critical path of a start on an idle machine. The kernel brings
 * the counter up to date at each scheduler tick and switch, so a step's share is exact only to a
 * tick (1-4 ms): compare medians of many runs.
 */
function mainThreadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ', 1)[0]) / 1e6;
  } catch {
    return NaN;
  }
}
