/**
 * Cooperative yielding between the event loop's searches and the engine's background threads
 * (inversion, merge): while a search is in flight, those threads stop at their next safe point
 * until it ends, so the search has the cores to itself (issue 17: search p99 while `api` indexes
 * at full speed). Nice 19 already keeps those threads' own code off a core the event loop wants,
 * but not what they bring on at normal priority: every scavenge of an indexing thread's heap runs
 * on V8's shared helper threads, and on two cores those took the event loop's core for
 * milliseconds at a time. A thread that waits allocates nothing, so no new collection of its heap
 * starts while a search runs.
 *
 * The gate is one counter in a SharedArrayBuffer, one per process ({@link foregroundGate}):
 * searches enter and leave it; a background thread gets its buffer in its `workerData` and makes
 * a {@link BackgroundPauser} of it. A pause ends when the last search leaves (Atomics.notify), or
 * after `maxPauseMs`; and a thread pauses for at most `maxShare` of its time, so a saturating
 * search load slows indexing down but never stops it.
 */

/** Searches in flight: a counter shared by the event loop and the background threads. */
export class ForegroundGate {
  private readonly cells: Int32Array;

  constructor(readonly shared: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.cells = new Int32Array(shared, 0, 1);
  }

  /** Foreground work (a search) starts: background threads pause at their next safe point. */
  enter(): void {
    Atomics.add(this.cells, 0, 1);
  }

  /** Foreground work ends; when none is left, paused threads resume at once. */
  leave(): void {
    if (Atomics.sub(this.cells, 0, 1) === 1) Atomics.notify(this.cells, 0);
  }

  /** Runs `work` inside the gate (entered until it settles). */
  async around<T>(work: () => Promise<T>): Promise<T> {
    this.enter();
    try {
      return await work();
    } finally {
      this.leave();
    }
  }

  /** Foreground tasks in flight now. */
  get inFlight(): number {
    return Atomics.load(this.cells, 0);
  }
}

let processGate: ForegroundGate | null = null;

/** This process's gate: the one searches enter and the writer's background threads are given. */
export function foregroundGate(): ForegroundGate {
  return (processGate ??= new ForegroundGate());
}

/** How a background thread yields. */
export interface PauseLimits {
  /** The longest single pause, in ms. */
  readonly maxPauseMs: number;
  /** The largest share of its time a thread spends paused (0-1). */
  readonly maxShare: number;
}

/**
 * Pauses of 10 ms at most (a search answers in ~1 ms, and its idle p99 over HTTP is ~5 ms), and
 * at most a third of the thread's time: at 100 searches/s the gate is open ~80-90% of the time,
 * and under a saturating load indexing keeps two thirds of its speed.
 */
export const DEFAULT_PAUSE_LIMITS: PauseLimits = { maxPauseMs: 10, maxShare: 1 / 3 };

/** The background thread's side of a {@link ForegroundGate}. */
export class BackgroundPauser {
  private readonly cells: Int32Array;
  /** performance.now() before which this thread must not pause again (its share of work). */
  private workUntil = 0;
  /** Total ms paused, for tests and figures. */
  pausedMs = 0;
  pauses = 0;

  constructor(shared: SharedArrayBuffer, private readonly limits: PauseLimits = DEFAULT_PAUSE_LIMITS) {
    this.cells = new Int32Array(shared, 0, 1);
  }

  /** Whether a search is in flight and this thread may pause now (cheap: one atomic load). */
  wanted(): boolean {
    return Atomics.load(this.cells, 0) > 0 && performance.now() >= this.workUntil;
  }

  /**
   * A safe point: if a search is in flight, waits until none is (or `maxPauseMs` pass). Blocks
   * the thread (Atomics.wait): call it only between units of work, never holding something the
   * event loop waits for.
   */
  point(): void {
    if (Atomics.load(this.cells, 0) === 0) return;
    const start = performance.now();
    if (start < this.workUntil) return;
    const deadline = start + this.limits.maxPauseMs;
    for (;;) {
      const inFlight = Atomics.load(this.cells, 0);
      const left = deadline - performance.now();
      if (inFlight === 0 || left <= 0) break;
      Atomics.wait(this.cells, 0, inFlight, left);
    }
    const paused = performance.now() - start;
    this.pausedMs += paused;
    this.pauses++;
    // Work (1 - share) / share times as long as the pause before the next one.
    this.workUntil = performance.now() + (paused * (1 - this.limits.maxShare)) / this.limits.maxShare;
  }
}

/** The pauser a background thread installed for itself ({@link installBackgroundPauser}), or null. */
let threadPauser: BackgroundPauser | null = null;

/** In a background thread: pause at this thread's safe points on `shared` (absent: never). */
export function installBackgroundPauser(shared: SharedArrayBuffer | undefined, limits?: PauseLimits): BackgroundPauser | null {
  threadPauser = shared === undefined ? null : new BackgroundPauser(shared, limits);
  return threadPauser;
}

/** This thread's pauser, or null (the event loop, or a thread started without a gate). */
export function backgroundPauser(): BackgroundPauser | null {
  return threadPauser;
}
