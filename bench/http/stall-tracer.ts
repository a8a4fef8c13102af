/**
 * A main-thread stall tracer for the server of `npm run bench:http` (`YARROW_HTTP_STALLS`): the
 * bench writes {@link stallTracerModule} to a file and starts the server with `--import` of it.
 *
 * A 2 ms interval timer notes each gap between its ticks longer than `minGapMs` past the interval,
 * and, from the kernel's accounting of the thread (`/proc/thread-self/schedstat`: time on a CPU,
 * time waiting in the run queue), how much of the gap the event loop ran, how much it waited for a
 * core, and so how long it slept (blocked: in a collection waiting for V8's helper threads, say).
 * On a loaded machine a gap's wall length is mostly other processes' doing; the part the thread
 * ran is the server's own work (a long task, a collection) and moves little with the load. The
 * accounting is updated at scheduler ticks, so read `ran` to a millisecond or so. Garbage
 * collections of the main thread (PerformanceObserver 'gc') are listed too.
 *
 * Each paced query (a request with the {@link PACED_QUERY_HEADER} header) is timed on the server
 * too, from node's `http.server.request.start` diagnostics channel (its head parsed: the event loop
 * has read it) to the response's `finish` (the answer handed to the socket), so a slow query's
 * latency splits into the client's lateness, the wait before the event loop read the request
 * (loopback, the loop busy or waiting for a core), the handler, and the way back to the client.
 *
 * At exit it writes JSON to `out`: `{ gaps: [[start, wall, ran, waited]], gcs: [[start, ms, kind]],
 * queries: [[query, start, finish]] }`, times in ms on the monotonic clock (process.hrtime), as
 * bench:http and V8's CPU profiles stamp theirs.
 */
import type { PerformanceEntry } from 'node:perf_hooks';

/** One gap of the event loop: start (monotonic ms), wall ms, ms it ran, ms it waited for a CPU. */
export type StallGap = [start: number, wall: number, ran: number, waited: number];
/** One main-thread collection: start (monotonic ms), ms, V8's kind (1 scavenge, 4 mark-compact, 8 incremental, 16 weak callbacks). */
export type StallGc = [start: number, ms: number, kind: number];
/**
 * One paced query as the server saw it: its number (the client's `x-paced-query` header), when
 * node had parsed its request head (monotonic ms) and when the answer was handed to the socket.
 */
export type StallQuery = [query: number, start: number, finish: number];

/** The header the paced client numbers its queries with, so the server's times can be matched to the client's. */
export const PACED_QUERY_HEADER = 'x-paced-query';

/**
 * The tracer. It runs in the server, which is plain node without this repository's loader, so it
 * is written out as JavaScript from this function's source ({@link stallTracerModule}): it reaches
 * node's modules through `process.getBuiltinModule` and refers to nothing outside its body.
 */
function traceStalls(out: string, minGapMs: number, queryHeader: string): void {
  const { closeSync, openSync, readSync, writeFileSync } = process.getBuiltinModule('node:fs');
  const { subscribe } = process.getBuiltinModule('node:diagnostics_channel');
  const { PerformanceObserver, performance } = process.getBuiltinModule('node:perf_hooks');
  const { isMainThread } = process.getBuiltinModule('node:worker_threads');
  if (!isMainThread || process.platform !== 'linux') return;
  const intervalMs = 2;
  // performance.now() plus this is the monotonic clock in ms.
  const offset = Number(process.hrtime.bigint()) / 1e6 - performance.now();
  const fd = openSync('/proc/thread-self/schedstat', 'r');
  const buf = Buffer.alloc(128);
  /** [ms on a CPU, ms waiting for one] of this thread so far. */
  const schedstat = (): [number, number] => {
    const n = readSync(fd, buf, 0, buf.length, 0);
    const [ran, waited] = buf.toString('latin1', 0, n).split(' ');
    return [Number(ran) / 1e6, Number(waited) / 1e6];
  };
  const round = (v: number): number => Math.round(v * 1000) / 1000;
  const gaps: StallGap[] = [];
  const gcs: StallGc[] = [];
  let last = performance.now();
  let [lastRan, lastWaited] = schedstat();
  const timer = setInterval(() => {
    const now = performance.now();
    const [ran, waited] = schedstat();
    const wall = now - last;
    if (wall - intervalMs >= minGapMs) gaps.push([round(last + offset), round(wall), round(ran - lastRan), round(waited - lastWaited)]);
    last = now;
    lastRan = ran;
    lastWaited = waited;
  }, intervalMs);
  timer.unref();
  const observer = new PerformanceObserver((list) => {
    // A 'gc' entry's detail holds the collection's kind (node >= 16).
    for (const e of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } | null })[]) gcs.push([round(e.startTime + offset), round(e.duration), e.detail?.kind ?? 0]);
  });
  observer.observe({ entryTypes: ['gc'] });
  const queries: StallQuery[] = [];
  subscribe('http.server.request.start', (message) => {
    const { request, response } = message as { request: { headers: Record<string, string | string[] | undefined> }; response: { once: (event: 'finish', listener: () => void) => void } };
    const query = request.headers[queryHeader];
    if (typeof query !== 'string') return;
    const start = performance.now();
    response.once('finish', () => { queries.push([Number(query), round(start + offset), round(performance.now() + offset)]); });
  });
  process.on('exit', () => {
    closeSync(fd);
    writeFileSync(out, JSON.stringify({ gaps, gcs, queries }));
  });
}

/**
 * The source of a module that starts the tracer, writing to `out` at exit (gaps over `minGapMs`).
 * `__name` is the helper esbuild (under tsx) may call in a function's body to keep names.
 */
export function stallTracerModule(out: string, minGapMs = 5): string {
  return `const __name = (f) => f;\n(${traceStalls.toString()})(${JSON.stringify(out)}, ${minGapMs}, ${JSON.stringify(PACED_QUERY_HEADER)});\n`;
}
