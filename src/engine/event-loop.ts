/**
 * Cooperative scheduling for CPU-heavy engine work (inverting a large batch, flushing a buffer,
 * merging segments) that runs on the same thread as request handling: the work checks in as it
 * goes and gives the event loop a turn once its time slice is used up, so searches and I/O
 * callbacks are not held up for the whole job.
 */
import { backgroundPauser } from './commit/foreground-gate.js';

/** Lets pending I/O callbacks and requests run before the next slice of work. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Milliseconds of work between two yields: the longest a request waits behind a sliced job. A
 * search answers in ~1 ms and its idle p99 is ~5 ms over HTTP, so 8 ms slices alone could more
 * than double a search's latency while a server indexes (issue 17's bound is 2x); a yield costs
 * microseconds.
 */
const SLICE_MS = 4;

/** Tracks one job's time slice. */
export class TimeSlicer {
  private sliceStart = performance.now();

  /**
   * Whether the current slice is used up (cheap enough to call per unit of work); on a background
   * thread also when a search wants the cores (`foreground-gate.ts`).
   */
  due(): boolean {
    return performance.now() - this.sliceStart >= SLICE_MS || backgroundPauser()?.wanted() === true;
  }

  /** Yields to the event loop (on a background thread, first waits out a search) and starts a new slice. */
  async yield(): Promise<void> {
    backgroundPauser()?.point();
    await yieldToEventLoop();
    this.sliceStart = performance.now();
  }
}
