/**
 * Search at a fixed rate for issue 17's latency check, measured so that the figure is the server's:
 *
 * - Open loop: query k is due at `start + k / rate`, whatever happened to the ones before, and its
 *   latency counts from when it was due (so a stall of the server counts for every query that
 *   arrives during it, not only for the one it caught). autocannon's `overallRate` did neither: a
 *   connection sent its whole second's share back to back and then waited for the next second
 *   (a burst of 50 sequential queries per connection, then ~950 ms of silence), and it "corrected"
 *   for coordinated omission with an expected interval of ceil(1 / rate) = 1 ms (seconds taken for
 *   milliseconds), which adds a synthetic sample for every millisecond of a slow answer: one 18 ms
 *   answer among 800 wrote 18 samples of 1..18 ms and alone made the p99 11 ms.
 * - Its own event loop: the client runs in a worker thread, so the bench's main thread (which posts
 *   the 8 MB indexing bodies meanwhile) cannot delay a query's send or the reading of its answer.
 *   How late the client sent (written minus due) is reported, so its share stays visible.
 * - Exact percentiles over all samples (nearest rank), no histogram buckets.
 */
import { appendFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** What the worker is given. */
export interface PacedLoadOptions {
  readonly url: string;
  readonly queries: readonly string[];
  /** Queries per second in all. */
  readonly rate: number;
  readonly seconds: number;
  /** Keep-alive connections the queries share (a query due while all are busy waits for one). */
  readonly connections: number;
}

/** performance.now() times per query, in the worker's clock. */
export interface PacedSamples {
  readonly due: Float64Array;
  readonly sent: Float64Array;
  readonly ended: Float64Array;
  readonly failures: number;
  /** Monotonic clock (process.hrtime) minus performance.now(), in ms. */
  readonly clockOffset: number;
}

/** The figures of one paced run, in milliseconds. */
export interface PacedResult {
  readonly queries: number;
  readonly failures: number;
  /** Answer end minus due time: what a caller arriving on schedule waits. */
  readonly latency: Percentiles;
  /** Answer end minus the time the request was written. */
  readonly service: Percentiles;
  /** Written minus due: the client's own lateness (its timer, a busy connection pool). */
  readonly clientLag: Percentiles;
  /** The slowest queries: when they were due (ms after the first) and their latency. */
  readonly slowest: readonly { readonly at: number; readonly latency: number }[];
  /** Every query's times, to match against the server's (bench:http's stall report). */
  readonly samples: PacedSamples;
}

export interface Percentiles {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

/** Nearest-rank percentiles of `values` (sorted in place). */
export function percentiles(values: Float64Array): Percentiles {
  values.sort();
  const rank = (p: number): number => values[Math.min(values.length - 1, Math.max(0, Math.ceil(p * values.length) - 1))];
  return { p50: rank(0.5), p90: rank(0.9), p99: rank(0.99), max: values[values.length - 1] };
}

function summarize(s: PacedSamples): PacedResult {
  const n = s.due.length;
  const latency = new Float64Array(n);
  const service = new Float64Array(n);
  const lag = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    latency[k] = s.ended[k] - s.due[k];
    service[k] = s.ended[k] - s.sent[k];
    lag[k] = s.sent[k] - s.due[k];
  }
  const order = Array.from(latency.keys()).sort((a, b) => latency[b] - latency[a]).slice(0, 5);
  const slowest = order.map((k) => ({ at: s.due[k] - s.due[0], latency: latency[k] }));
  return { queries: n, failures: s.failures, latency: percentiles(latency), service: percentiles(service), clientLag: percentiles(lag), slowest, samples: s };
}

/** Runs the paced client in a worker thread and summarizes its samples. */
export async function pacedLoad(options: PacedLoadOptions): Promise<PacedResult> {
  const url = new URL('./paced-load-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(url)}); })`;
  const worker = new Worker(code, { eval: true, workerData: options });
  const samples = await new Promise<PacedSamples>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => { reject(new Error(`the paced client exited with ${code}`)); });
  });
  await worker.terminate();
  const dump = process.env.YARROW_HTTP_SAMPLES;
  if (dump !== undefined && dump !== '') {
    // Due times on the monotonic clock (ms) as V8's CPU profiles stamp theirs (startTime, in us).
    const rows = Array.from(samples.due, (d, k) => `${(d + samples.clockOffset).toFixed(3)}\t${(samples.sent[k] - d).toFixed(3)}\t${(samples.ended[k] - samples.sent[k]).toFixed(3)}`);
    appendFileSync(dump, `# due (monotonic ms)\tlag (ms)\tservice (ms)\n${rows.join('\n')}\n`);
  }
  return summarize(samples);
}

const ms = (v: number): string => v.toFixed(v < 10 ? 2 : 1);

/** One line: rate, latency percentiles, the client's lag and the slowest queries. */
export function formatPaced(r: PacedResult, seconds: number): string {
  const l = r.latency;
  return `${Math.round(r.queries / seconds)} q/s, latency p50 ${ms(l.p50)} ms, p90 ${ms(l.p90)} ms, p99 ${ms(l.p99)} ms, max ${ms(l.max)} ms`
    + ` (${r.failures} failed; service p99 ${ms(r.service.p99)} ms; client lag p99 ${ms(r.clientLag.p99)} ms;`
    + ` slowest at ${r.slowest.map((q) => `${(q.at / 1000).toFixed(2)} s: ${ms(q.latency)}`).join(', ')})`;
}
