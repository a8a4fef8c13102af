/**
 * The fixed-rate search client of bench:http, run in a worker thread of its own (see paced-load.ts
 * for why): sends query k at `start + k / rate` (open loop: the schedule does not wait for answers)
 * over a pool of keep-alive connections, and records for each query when it was due, when it was
 * written and when its answer ended. Posts one {@link PacedSamples} message when done.
 */
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import type { PacedLoadOptions, PacedSamples } from './paced-load.js';
import { PACED_QUERY_HEADER } from './stall-tracer.js';

const options = workerData as PacedLoadOptions;
const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
const target = new URL(options.url);

/**
 * One POST of `body`; resolves with the time its answer ended (performance.now()) and its status.
 * A timed query carries its number `k`, so the server's stall tracer can time it too.
 */
function post(body: string, k?: number): Promise<{ ended: number; status: number }> {
  return new Promise((resolve, reject) => {
    const req = request({
      agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(k === undefined ? {} : { [PACED_QUERY_HEADER]: String(k) }) },
    }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => { resolve({ ended: performance.now(), status: res.statusCode ?? 0 }); });
      res.on('error', reject);
    });
    // A request goes out in one write; no Nagle delay on a keep-alive socket either way.
    req.on('socket', (socket) => { socket.setNoDelay(true); });
    req.on('error', reject);
    req.end(body);
  });
}

async function run(): Promise<PacedSamples> {
  const { queries, rate, seconds, connections } = options;
  // Open every connection (and warm both ends) before the clock starts.
  for (let round = 0; round < 3; round++) {
    await Promise.all(Array.from({ length: connections }, (_, i) => post(queries[(round * connections + i) % queries.length])));
  }
  const total = Math.round(rate * seconds);
  const due = new Float64Array(total);
  const sent = new Float64Array(total);
  const ended = new Float64Array(total);
  let failures = 0;
  const period = 1000 / rate;
  const start = performance.now() + 5;
  const answers: Promise<void>[] = [];
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const now = performance.now();
      for (; next < total && start + next * period <= now; next++) {
        const k = next;
        due[k] = start + k * period;
        sent[k] = performance.now();
        answers.push(post(queries[k % queries.length], k).then((a) => {
          ended[k] = a.ended;
          if (a.status !== 200) failures++;
        }, () => {
          ended[k] = performance.now();
          failures++;
        }));
      }
      if (next >= total) {
        resolve();
        return;
      }
      setTimeout(tick, Math.max(0, start + next * period - performance.now()));
    };
    setTimeout(tick, Math.max(0, start - performance.now()));
  });
  await Promise.all(answers);
  agent.destroy();
  return { due, sent, ended, failures, clockOffset: Number(process.hrtime.bigint()) / 1e6 - performance.now() };
}

const samples = await run();
parentPort?.postMessage(samples);
