/**
 * Prometheus metrics of one server, in its own registry (never prom-client's global one, so two
 * servers in one process, e.g. in tests, do not collide): requests by route and status, latency
 * histograms, documents indexed, commits, refreshes, reloads, and per-index gauges read at scrape.
 * Loaded late, through {@link ApiMetrics} (metrics.ts).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { vectorCacheStats, type BlockCacheStats } from '../engine/index.js';
import type { IndexEvents, ServedIndex } from './served-index.js';

/** The server's metrics in a prom-client registry. */
export class PrometheusMetrics implements IndexEvents {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route'>;
  private readonly docsIndexed: Counter<'index'>;
  private readonly bytesIndexed: Counter<'index'>;
  private readonly commits: Counter<'index'>;
  private readonly refreshes: Counter<'index'>;
  private readonly reloads: Counter<'index'>;
  private readonly pollFailures: Counter<'index'>;

  constructor(indexes: () => Iterable<ServedIndex>) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'yarrow_process_' });
    this.requests = new Counter({ name: 'yarrow_http_requests_total', help: 'HTTP requests by method, route and status', labelNames: ['method', 'route', 'status'], registers });
    this.latency = new Histogram({
      name: 'yarrow_http_request_duration_seconds',
      help: 'HTTP request latency by method and route',
      labelNames: ['method', 'route'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.docsIndexed = new Counter({ name: 'yarrow_docs_indexed_total', help: 'Documents accepted by _index (durable)', labelNames: ['index'], registers });
    this.bytesIndexed = new Counter({ name: 'yarrow_index_body_bytes_total', help: 'Decoded _index body bytes accepted', labelNames: ['index'], registers });
    // Counters read from the engine and the store at scrape time, so automatic commits and
    // refreshes count too; an index without the figure (a local store's transfers) is left out.
    const collected = (name: string, help: string, read: (s: ServedIndex) => number | undefined): Counter<'index'> =>
      new Counter({
        name,
        help,
        labelNames: ['index'],
        registers,
        collect() {
          this.reset();
          for (const s of indexes()) {
            const value = read(s);
            if (value !== undefined) this.inc({ index: s.name }, value);
          }
        },
      });
    this.commits = collected('yarrow_commits_total', 'Commits this process made (_flush, automatic, shutdown)', (s) => s.index().stats().commits);
    this.refreshes = collected('yarrow_refreshes_total', 'Refreshes that made buffered documents searchable', (s) => s.index().stats().refreshes);
    this.reloads = new Counter({ name: 'yarrow_reloads_total', help: 'Commits picked up by a read-only index', labelNames: ['index'], registers });
    this.pollFailures = new Counter({ name: 'yarrow_poll_errors_total', help: 'Failed polls for new commits of a read-only index (retried with backoff)', labelNames: ['index'], registers });
    const gauge = (name: string, help: string, read: (s: ServedIndex) => Promise<number | null>): void => {
      new Gauge({
        name,
        help,
        labelNames: ['index'],
        registers,
        async collect() {
          this.reset();
          for (const s of indexes()) {
            const value = await read(s).catch(() => null);
            if (value !== null) this.set({ index: s.name }, value);
          }
        },
      });
    };
    const stat = (s: ServedIndex): ReturnType<ReturnType<ServedIndex['index']>['stats']> => s.index().stats();
    gauge('yarrow_index_docs', 'Searchable documents', (s) => Promise.resolve(stat(s).docs));
    gauge('yarrow_index_segments', 'Segments in the searchable snapshot', (s) => Promise.resolve(stat(s).segments));
    gauge('yarrow_index_seq', 'Sequence number of the last commit', (s) => Promise.resolve(stat(s).seq));
    gauge('yarrow_index_size_bytes', 'Bytes of committed segment files', (s) => Promise.resolve(stat(s).sizeBytes));
    gauge('yarrow_index_buffered_docs', 'Documents written but not yet searchable', (s) => Promise.resolve(stat(s).bufferedDocs));
    gauge('yarrow_wal_bytes', 'Bytes of write-ahead log on disk', (s) => s.walBytes());
    gauge('yarrow_index_commit_age_seconds', 'Seconds since the served commit was made', (s) => Promise.resolve(s.health().commitAgeSeconds));
    collected('yarrow_storage_downloaded_bytes_total', 'Bytes downloaded from object storage', (s) => s.transfers()?.bytesDownloaded);
    collected('yarrow_storage_uploaded_bytes_total', 'Bytes uploaded to object storage', (s) => s.transfers()?.bytesUploaded);
    collected('yarrow_storage_requests_total', 'Requests sent to object storage', (s) => s.transfers()?.requests);
    // The process's vector block cache, shared by every index; absent until a vector field opens.
    const cache = (name: string, help: string, read: (s: BlockCacheStats) => number): void => {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.reset();
          const s = vectorCacheStats();
          if (s !== null) this.set(read(s));
        },
      });
    };
    cache('yarrow_vector_cache_hits', 'Page hits of the vector block cache since start', (s) => s.hits);
    cache('yarrow_vector_cache_misses', 'Page misses (reads from the files) of the vector block cache since start', (s) => s.misses);
    cache('yarrow_vector_cache_evictions', 'Pages evicted from the vector block cache since start', (s) => s.evictions);
    cache('yarrow_vector_cache_used_bytes', 'Bytes of pages held by the vector block cache', (s) => s.pagesUsed * s.pageSize);
    cache('yarrow_vector_cache_budget_bytes', 'Byte budget of the vector block cache (YARROW_VECTOR_CACHE_MB)', (s) => s.budgetBytes);
  }

  /** Records one finished request. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.latency.observe({ method, route }, seconds);
  }

  indexed(index: string, docs: number, bytes: number): void {
    this.docsIndexed.inc({ index }, docs);
    this.bytesIndexed.inc({ index }, bytes);
  }

  reloaded(index: string): void {
    this.reloads.inc({ index });
  }

  pollFailed(index: string): void {
    this.pollFailures.inc({ index });
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
