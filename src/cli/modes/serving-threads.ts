/**
 * Thread priorities of the server modes (`api`, `search`, `standalone`): the event loop is the one
 * thread a waiting request needs, so every thread node started before it serves runs at a lower
 * priority. Those are V8's platform workers (the garbage collector's parallel and concurrent
 * helpers, for every isolate of the process: the inversion and merge threads' collections ran
 * there at normal priority, ~1.7 s of CPU in 8 s of `_index` at full speed, competing with the
 * event loop for the machine's cores even though the threads they served run at nice 19),
 * the delayed-task scheduler and libuv's thread pool (file writes and fsyncs of the indexing path).
 * The engine's own background threads lower themselves (`lowerThreadPriority`); threads started
 * later by the event loop (an inference session's, which answer searches) keep its priority.
 *
 * The event loop does not wait on these helpers: V8's parallel collections let the waiting thread
 * do the work a helper has not picked up, and its concurrent marking falls back to incremental
 * steps on the main thread.
 */
import { readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

/** Nice value of the helper threads (the lowest priority, as the engine's background threads). */
export const HELPER_NICE = 19;

/**
 * Lowers every thread of this process but the calling main thread to `nice` (Linux, where a
 * thread id names one thread to `setpriority`; elsewhere it does nothing). libuv's pool starts on
 * its first job, so one is queued first. Call it before starting threads that must keep normal
 * priority. Returns how many threads were lowered; a refusal (a sandbox) leaves a thread as it was.
 */
export async function lowerHelperThreads(nice: number = HELPER_NICE, platform: NodeJS.Platform = process.platform): Promise<number> {
  if (platform !== 'linux' || !isMainThread) return 0;
  // A job on the pool makes libuv start all of its threads.
  await stat('/proc/self');
  let lowered = 0;
  for (const entry of readdirSync('/proc/self/task')) {
    const tid = Number(entry);
    if (tid === process.pid) continue;
    try {
      setPriority(tid, nice);
      lowered++;
    } catch {
      // Gone since the listing, or not ours to change: it keeps its priority.
    }
  }
  return lowered;
}
