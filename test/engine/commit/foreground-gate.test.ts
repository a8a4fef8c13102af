/**
 * The foreground gate (issue 17: search latency while `api` indexes): background threads pause at
 * their safe points while a search is in flight, resume as soon as none is, and never pause for
 * longer or more often than their limits allow. Real worker threads and a real HTTP server.
 */
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { after, before, describe, it } from 'node:test';
import { BackgroundPauser, ForegroundGate, foregroundGate, installBackgroundPauser } from '../../../src/engine/commit/foreground-gate.js';
import { TimeSlicer } from '../../../src/engine/event-loop.js';
import type { Index } from '../../../src/engine/search-index.js';
import { serveLoopbackIndex } from '../../helpers/loopback-index.js';

/**
 * A worker that reports `ready`, stops at a safe point of its BackgroundPauser (the real module,
 * loaded through tsx as engine-worker.ts loads a worker's entry), then reports what it saw.
 */
const gateModule = new URL('../../../src/engine/commit/foreground-gate.ts', import.meta.url).href;
const safePointWorker = `
const { parentPort, workerData } = require('node:worker_threads');
import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(gateModule)}); }).then(({ BackgroundPauser }) => {
  const pauser = new BackgroundPauser(workerData.gate, { maxPauseMs: workerData.maxPauseMs, maxShare: 0.5 });
  const cells = new Int32Array(workerData.flag, 0, 2);
  // Arrived at the safe point (cell 1): the test opens the gate only from here on.
  Atomics.store(cells, 1, 1);
  Atomics.notify(cells, 1);
  pauser.point();
  parentPort.postMessage({ type: 'resumed', flag: Atomics.load(cells, 0) });
});
`;

function nextMessage(worker: Worker): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe('foreground gate', () => {
  it('a thread paused at a safe point resumes when the last search leaves, not before', async () => {
    const gate = new ForegroundGate();
    const flag = new Int32Array(new SharedArrayBuffer(8));
    gate.enter();
    gate.enter();
    // A pause far longer than the test: the worker can only resume because the gate opened.
    const worker = new Worker(safePointWorker, { eval: true, workerData: { gate: gate.shared, flag: flag.buffer, maxPauseMs: 60_000 } });
    try {
      const resumed = nextMessage(worker);
      // Until the worker is at its safe point (it takes a few hundred ms to load tsx).
      while (Atomics.load(flag, 1) === 0) Atomics.wait(flag, 1, 0, 60_000);
      gate.leave();
      // One search is still in flight: the worker must still be waiting when the last one leaves.
      Atomics.store(flag, 0, 1);
      gate.leave();
      const message = await resumed;
      assert.equal(message.type, 'resumed');
      // Resumed only after the flag was set, that is after the last search left (whether it
      // reached its safe point before the first leave, as it does but for a descheduling, or not).
      assert.equal(message.flag, 1);
      assert.equal(gate.inFlight, 0);
    } finally {
      await worker.terminate();
    }
  });

  it('does not pause with no search in flight', () => {
    const gate = new ForegroundGate();
    const pauser = new BackgroundPauser(gate.shared, { maxPauseMs: 60_000, maxShare: 0.5 });
    assert.equal(pauser.wanted(), false);
    pauser.point();
    assert.equal(pauser.pauses, 0);
  });

  it('pauses at most maxPauseMs, then works before it may pause again (maxShare)', () => {
    const gate = new ForegroundGate();
    const pauser = new BackgroundPauser(gate.shared, { maxPauseMs: 5, maxShare: 0.2 });
    gate.enter();
    try {
      assert.equal(pauser.wanted(), true);
      pauser.point();
      assert.equal(pauser.pauses, 1);
      assert.ok(pauser.pausedMs >= 5, `paused ${pauser.pausedMs} ms`);
      // A fifth of its time at most: it now owes four times the pause in work.
      assert.equal(pauser.wanted(), false);
      pauser.point();
      assert.equal(pauser.pauses, 1);
    } finally {
      gate.leave();
    }
  });

  it('ends the time slice of a background thread while a search runs, and only there', () => {
    const gate = new ForegroundGate();
    const slicer = new TimeSlicer();
    gate.enter();
    try {
      // The event loop installs no pauser: its slices are the usual 4 ms.
      assert.equal(slicer.due(), false);
      installBackgroundPauser(gate.shared);
      assert.equal(slicer.due(), true);
    } finally {
      installBackgroundPauser(undefined);
      gate.leave();
    }
    assert.equal(slicer.due(), false);
  });
});

describe('searches over HTTP enter the process gate', () => {
  let base: string;
  let close: () => Promise<void>;
  /** The gate's count each time the server called the index's search. */
  const inFlightAtSearch: number[] = [];

  before(async () => {
    let index: Index;
    ({ base, close, index } = await serveLoopbackIndex('notes', { mapping: { fields: { title: { type: 'text' } } } }));
    // Observes the real search as the route calls it (it still runs).
    const searchAsync = index.searchAsync.bind(index);
    index.searchAsync = (request) => {
      inFlightAtSearch.push(foregroundGate().inFlight);
      return searchAsync(request);
    };
    const res = await fetch(`${base}/notes/_index?refresh=true`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: '{"_id":"a","title":"river stone"}\n' });
    assert.equal(res.status, 200);
  });
  after(async () => {
    await close();
  });

  const search = (body: string): Promise<Response> => fetch(`${base}/notes/_search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('marks a search in flight while it runs, and leaves the gate after answering', async () => {
    inFlightAtSearch.length = 0;
    const res = await search(JSON.stringify({ query: { match: { title: 'river' } } }));
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { total: number }).total, 1);
    const get = await fetch(`${base}/notes/_search?q=river`);
    assert.equal(get.status, 200);
    assert.deepEqual(inFlightAtSearch, [1, 1]);
    assert.equal(foregroundGate().inFlight, 0);
  });

  it('leaves the gate when a search fails', async () => {
    inFlightAtSearch.length = 0;
    const res = await search(JSON.stringify({ query: { match: { nofield: 'river' } } }));
    assert.equal(res.status, 400);
    assert.deepEqual(inFlightAtSearch, [1]);
    assert.equal(foregroundGate().inFlight, 0);
  });
});
