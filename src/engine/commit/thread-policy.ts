/**
 * The one place the engine asks the operating system for a thread's scheduling policy, which
 * node has no binding for: it runs `chrt` (util-linux) on the calling thread's id, read from
 * `/proc/thread-self`. The dependency rules that keep file and process I/O out of src/engine
 * (.dependency-cruiser.cjs) make an exception for this module alone: it touches no storage.
 */
import { spawnSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';

/**
 * Linux's `SCHED_IDLE` policy for the calling thread, asked of at nice 19 (the lowest): the
 * scheduler then preempts the thread the moment any normal thread wakes on its core. At nice 19
 * alone, the fair scheduler (EEVDF, Linux >= 6.6) lets the running thread finish its slice first
 * (~1-3 ms), and on 2 cores a search's request, the event loop's reply and the client can each
 * wait behind that (issue 17: search p99 while `api` indexes; scheduler traces of bench:http,
 * read with bench/http/sched-trace.ts, had the inversion or merge thread on the core the event
 * loop was queued on in 10-17% of its waits over 0.5 ms).
 *
 * A thread may lower itself to `SCHED_IDLE` without privilege. It costs one `chrt` process per
 * thread start, spawned from the thread itself. Without `chrt`, or if it fails, the thread stays
 * at nice 19. Returns whether the policy was set.
 */
export function idleSchedulingPolicy(): boolean {
  try {
    // "<pid>/task/<tid>": this thread's id, which `chrt -p` takes.
    const tid = readlinkSync('/proc/thread-self').split('/').pop() ?? '';
    if (!/^\d+$/.test(tid)) return false;
    const result = spawnSync('chrt', ['--idle', '-p', '0', tid], { stdio: 'ignore', timeout: 10_000 });
    return result.status === 0;
  } catch {
    return false;
  }
}
