/**
 * Progress of a long indexing job (DESIGN: every long job reports docs, docs/s and bytes): a log
 * line every few seconds, and updates for a display (the CLI's progress bar on a terminal).
 */

/** A snapshot of the job's progress. */
export interface Progress {
  readonly docs: number;
  /** Content bytes (decompressed) read so far. */
  readonly bytes: number;
  /** Raw bytes read from the source (compressed, as stored). */
  readonly sourceBytes: number;
  /** Sum of the sizes of the source objects, when every size is known. */
  readonly totalSourceBytes: number | undefined;
  readonly elapsedMs: number;
  readonly docsPerSecond: number;
  /** Content megabytes (10^6 bytes) per second. */
  readonly megabytesPerSecond: number;
}

/** Something that shows progress continuously, like a terminal bar. */
export interface ProgressDisplay {
  update(progress: Progress): void;
  stop(): void;
}

/** What a {@link ProgressReporter} needs from its surroundings. */
export interface ProgressReporterOptions {
  /** Receives the periodic progress line. */
  readonly log: (message: string, fields: Record<string, unknown>) => void;
  /** Milliseconds between log lines (default 5,000). */
  readonly intervalMs?: number;
  readonly display?: ProgressDisplay | null;
  /** Milliseconds clock; injectable for tests. */
  readonly now?: () => number;
}

/** Counts documents and bytes and reports them. */
export class ProgressReporter {
  private docs = 0;
  private bytes = 0;
  private sourceBytes = 0;
  private totalSourceBytes: number | undefined = 0;
  private readonly started: number;
  private timer: NodeJS.Timeout | null = null;
  private readonly now: () => number;

  constructor(private readonly options: ProgressReporterOptions) {
    this.now = options.now ?? (() => performance.now());
    this.started = this.now();
  }

  /** Starts the periodic log line (the timer does not keep the process alive). */
  start(): void {
    const interval = this.options.intervalMs ?? 5000;
    this.timer = setInterval(() => { this.tick(); }, interval);
    this.timer.unref();
  }

  /** Adds an object's size to the total, or marks the total unknown. */
  addTotal(size: number | undefined): void {
    this.totalSourceBytes = size === undefined || this.totalSourceBytes === undefined ? undefined : this.totalSourceBytes + size;
  }

  /** Counts indexed documents and the content bytes they took. */
  addDocs(docs: number, bytes: number): void {
    this.docs += docs;
    this.bytes += bytes;
    this.options.display?.update(this.snapshot());
  }

  /** Counts raw bytes read from the source. */
  addSourceBytes(bytes: number): void {
    this.sourceBytes += bytes;
  }

  /** Logs the progress line now. */
  tick(): void {
    const p = this.snapshot();
    this.options.log(`progress: ${p.docs} docs, ${Math.round(p.docsPerSecond)} docs/s, ${p.megabytesPerSecond.toFixed(1)} MB/s${percent(p)}`, {
      docs: p.docs,
      docsPerSecond: Math.round(p.docsPerSecond),
      megabytesPerSecond: Number(p.megabytesPerSecond.toFixed(2)),
      bytes: p.bytes,
      sourceBytes: p.sourceBytes,
    });
  }

  /** Stops the timer and the display; returns the final figures. */
  stop(): Progress {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    const p = this.snapshot();
    this.options.display?.update(p);
    this.options.display?.stop();
    return p;
  }

  /** The figures so far. */
  snapshot(): Progress {
    const elapsedMs = Math.max(this.now() - this.started, 0);
    const seconds = Math.max(elapsedMs / 1000, 1e-3);
    return {
      docs: this.docs,
      bytes: this.bytes,
      sourceBytes: this.sourceBytes,
      totalSourceBytes: this.totalSourceBytes,
      elapsedMs,
      docsPerSecond: this.docs / seconds,
      megabytesPerSecond: this.bytes / 1e6 / seconds,
    };
  }
}

function percent(p: Progress): string {
  if (p.totalSourceBytes === undefined || p.totalSourceBytes === 0) return '';
  return `, ${Math.min(100, (100 * p.sourceBytes) / p.totalSourceBytes).toFixed(0)}% of input`;
}
