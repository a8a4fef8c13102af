/**
 * The server's metrics, with prom-client loaded late: importing it (with @opentelemetry/api, ~90
 * modules) and registering the default process collectors costs a fresh process about 20 ms of
 * CPU, which `yarrow search` would otherwise pay before its first answer (issue 17).
 * {@link ApiMetrics} takes the events at once and hands them to the Prometheus registry
 * ({@link PrometheusMetrics}) once that is loaded: at the first scrape, or {@link LOAD_AFTER_MS}
 * after construction, whichever comes first. Events in between are kept in order and replayed,
 * so no count is lost.
 */
import type { PrometheusMetrics } from './prometheus-metrics.js';
import type { IndexEvents, ServedIndex } from './served-index.js';

/** How long after construction the registry is loaded if no scrape asked for it before. */
export const LOAD_AFTER_MS = 1000;

type MetricsEvent = (metrics: PrometheusMetrics) => void;

/** The server's metrics; the same events and exposition as {@link PrometheusMetrics}. */
export class ApiMetrics implements IndexEvents {
  private loaded: PrometheusMetrics | null = null;
  private loading: Promise<PrometheusMetrics> | null = null;
  private pending: MetricsEvent[] = [];

  constructor(private readonly indexes: () => Iterable<ServedIndex>) {
    // Unref'd: a process that ends within the delay is not kept alive by it.
    setTimeout(() => { void this.load(); }, LOAD_AFTER_MS).unref();
  }

  /** Records one finished request. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.record((m) => { m.observeRequest(method, route, status, seconds); });
  }

  indexed(index: string, docs: number, bytes: number): void {
    this.record((m) => { m.indexed(index, docs, bytes); });
  }

  reloaded(index: string): void {
    this.record((m) => { m.reloaded(index); });
  }

  pollFailed(index: string): void {
    this.record((m) => { m.pollFailed(index); });
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; text: string }> {
    return (await this.load()).render();
  }

  private record(event: MetricsEvent): void {
    if (this.loaded !== null) event(this.loaded);
    else this.pending.push(event);
  }

  private load(): Promise<PrometheusMetrics> {
    this.loading ??= import('./prometheus-metrics.js').then(({ PrometheusMetrics }) => {
      const metrics = new PrometheusMetrics(this.indexes);
      for (const event of this.pending) event(metrics);
      this.pending = [];
      this.loaded = metrics;
      return metrics;
    });
    return this.loading;
  }
}
