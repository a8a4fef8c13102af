/**
 * Who held the cores while bench:http's threads waited for one (issue 17: search p99 while `api`
 * indexes). Reads a scheduler trace of a paced run, taken with
 *
 *   perf record -e sched:sched_switch -e sched:sched_wakeup -a -k CLOCK_MONOTONIC -o t.perf -- sleep 80
 *   perf script -i t.perf -F pid,tid,cpu,time,event,trace > t.txt
 *
 * around `YARROW_HTTP_PACED_ONLY=1 YARROW_HTTP_SAMPLES=s.tsv npm run bench:http` (which prints the
 * server's and its own pid), and prints, for the run while indexing (the second block of s.tsv):
 *
 * - for each of the server's event loop, the bench's main thread (the indexing client) and the
 *   bench's other normal-priority threads (the paced client, GC helpers), the share of time each
 *   class of thread held the core that thread was queued on (woken onto or preempted on) while it
 *   sat in the run queue for more than 0.5 ms: what it waited behind;
 * - the core time each class held during the slowest queries (due to answered).
 *
 * Classes: the server's event loop, its threads at normal priority by tid - pid (V8's platform
 * workers come first, then libuv's pool), its lowered ones, the bench's main thread and other
 * threads, and other processes. `perf` stamps with CLOCK_MONOTONIC (`-k`), as the samples' due
 * times are. Usage: `node --import tsx bench/http/sched-trace.ts t.txt s.tsv <server pid> <bench pid> [slowest n]`.
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length < 4) throw new Error('usage: sched-trace.ts <perf script output> <samples tsv> <server pid> <bench pid> [slowest n]');
const [traceFile, samplesFile] = args;
const server = Number(args[2]);
const bench = Number(args[3]);
const slowest = args.length > 4 ? Number(args[4]) : 16;

/** A stretch of one core given to one thread: [start ms, end ms, tid]. */
type Slice = [number, number, number];
const slices = new Map<number, Slice[]>();
const running = new Map<number, [number, number]>();
const processOf = new Map<number, number>();
const priorityOf = new Map<number, number>();
/** Run-queue waits: [tid, since ms, got a core ms, the core it was queued on]. */
const waits: [number, number, number, number][] = [];
/** Threads runnable and not running: since when, and the core they were queued on. */
const runnableSince = new Map<number, [number, number]>();

const line = /^\s*(\d+)\/(\d+)\s+\[(\d+)\]\s+([\d.]+): sched:(\w+): (.*)$/;
for (const text of readFileSync(traceFile, 'utf8').split('\n')) {
  const m = line.exec(text);
  if (m === null) continue;
  const [, pid, tid, cpu, seconds, event, rest] = m;
  const at = Number(seconds) * 1000;
  if (!processOf.has(Number(tid))) processOf.set(Number(tid), Number(pid));
  const fields = new Map([...rest.replace('==>', '').matchAll(/(\w+)=(\S+)/g)].map((f) => [f[1], f[2]] as const));
  if (event === 'sched_switch') {
    const prev = Number(fields.get('prev_pid'));
    const next = Number(fields.get('next_pid'));
    priorityOf.set(prev, Number(fields.get('prev_prio')));
    priorityOf.set(next, Number(fields.get('next_prio')));
    const core = Number(cpu);
    const was = running.get(core);
    if (was !== undefined) {
      const list = slices.get(core) ?? [];
      list.push([was[0], at, was[1]]);
      slices.set(core, list);
    }
    running.set(core, [at, next]);
    // Preempted while runnable: it waits from now.
    if ((fields.get('prev_state') ?? '').startsWith('R')) runnableSince.set(prev, [at, core]);
    else runnableSince.delete(prev);
    const since = runnableSince.get(next);
    if (since !== undefined) {
      waits.push([next, since[0], at, since[1]]);
      runnableSince.delete(next);
    }
  } else if (event === 'sched_wakeup') {
    const woken = Number(fields.get('pid'));
    // A wake-up of a thread still on a core (it was about to sleep) is traced too: not a wait.
    const onCore = [...running.values()].some(([, t]) => t === woken);
    if (!onCore && !runnableSince.has(woken)) runnableSince.set(woken, [at, Number(fields.get('target_cpu'))]);
  }
}

function classOf(tid: number): string {
  if (tid === 0) return 'idle';
  const pid = processOf.get(tid);
  const lowered = (priorityOf.get(tid) ?? 120) > 120;
  if (pid === server) return tid === server ? 'server event loop' : lowered ? 'server lowered' : `server +${tid - server}`;
  if (pid === bench) return tid === bench ? 'bench main (indexing client)' : lowered ? 'bench lowered' : 'bench other (paced client, GC)';
  return 'other processes';
}

/** Core time per class in [from, to), over every core or on `core` alone. */
function held(from: number, to: number, into: Map<string, number>, core?: number): void {
  for (const [c, list] of slices) {
    if (core !== undefined && c !== core) continue;
    // Slices are in time order: binary search for the first that may overlap.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid][1] <= from) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < list.length && list[i][0] < to; i++) {
      const overlap = Math.min(list[i][1], to) - Math.max(list[i][0], from);
      if (overlap > 0) into.set(classOf(list[i][2]), (into.get(classOf(list[i][2])) ?? 0) + overlap);
    }
  }
}

const shares = (m: Map<string, number>): string => {
  const total = [...m.values()].reduce((s, v) => s + v, 0);
  return [...m].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([k, v]) => `${k} ${((100 * v) / total).toFixed(0)}%`).join(', ');
};

// The samples file: a header line, then the idle run's rows, then (after a second header) the busy run's.
const blocks = readFileSync(samplesFile, 'utf8').split(/^#.*\n/m).filter((b) => b.trim() !== '');
const busy = blocks[blocks.length - 1].trim().split('\n').map((r) => r.split('\t').map(Number));
const from = busy[0][0];
const to = busy[busy.length - 1][0];
for (const who of ['server event loop', 'bench main (indexing client)', 'bench other (paced client, GC)']) {
  const m = new Map<string, number>();
  let n = 0;
  let waited = 0;
  for (const [tid, since, got, core] of waits) {
    if (since < from || since > to || got - since <= 0.5 || classOf(tid) !== who) continue;
    // The core it was queued on (woken onto, or preempted on): what held it is what it waited behind.
    held(since, got, m, core);
    n++;
    waited += got - since;
  }
  console.log(`while the ${who} waited > 0.5 ms for a core (${n} waits, ${waited.toFixed(0)} ms): ${shares(m)}`);
}
const worst = [...busy].sort((a, b) => b[1] + b[2] - (a[1] + a[2])).slice(0, slowest);
const during = new Map<string, number>();
for (const [due, lag, service] of worst) held(due, due + lag + service, during);
console.log(`during the ${worst.length} slowest queries (${(worst[worst.length - 1][1] + worst[worst.length - 1][2]).toFixed(1)} ms and over): ${shares(during)}`);
