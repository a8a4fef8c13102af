/**
 * The terminal progress bar (cli-progress) for long jobs on a TTY. Log lines written while it is
 * shown go through the bar's own log so they print above it instead of tearing it.
 */
import cliProgress from 'cli-progress';
import type { Progress, ProgressDisplay } from '../ingest/index.js';
import type { LogSink } from './cli-logger.js';

/** A one-line bar: percent of input when its size is known, else a running count. */
export class TerminalProgressBar implements ProgressDisplay {
  private readonly multi: cliProgress.MultiBar;
  private bar: cliProgress.SingleBar | null = null;
  private knownTotal: number | undefined;

  constructor(
    stream: NodeJS.WritableStream,
    private readonly sink: LogSink,
  ) {
    this.multi = new cliProgress.MultiBar(
      {
        stream,
        hideCursor: true,
        clearOnComplete: true,
        stopOnComplete: false,
        etaBuffer: 50,
        format: (options, params, payload: Record<string, string>) => {
          const rates = `${payload.docs} docs | ${payload.rate} docs/s | ${payload.mbps} MB/s`;
          if (this.knownTotal === undefined) return `indexing | ${rates}`;
          const complete = options.barCompleteString ?? '';
          const incomplete = options.barIncompleteString ?? '';
          const size = options.barsize ?? 30;
          const filled = Math.round(params.progress * size);
          const bar = complete.slice(0, filled) + incomplete.slice(0, size - filled);
          return `${bar} ${Math.floor(params.progress * 100)}% | ${rates} | ETA ${params.eta}s`;
        },
      },
      cliProgress.Presets.shades_classic,
    );
    sink.intercept((line) => { this.multi.log(line); });
  }

  update(p: Progress): void {
    const payload = { docs: p.docs, rate: Math.round(p.docsPerSecond), mbps: p.megabytesPerSecond.toFixed(1) };
    if (this.bar === null) {
      this.knownTotal = p.totalSourceBytes === 0 ? undefined : p.totalSourceBytes;
      this.bar = this.multi.create(this.knownTotal ?? 1, 0, payload);
    }
    this.bar.update(this.knownTotal === undefined ? 0 : Math.min(p.sourceBytes, this.knownTotal), payload);
  }

  stop(): void {
    this.multi.stop();
    this.sink.intercept(null);
  }
}
