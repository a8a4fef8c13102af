/**
 * `yarrow index kafka`: pulls documents from a Kafka topic into an index until SIGTERM / SIGINT,
 * then commits the index and the group offsets and exits 0 (docs/kafka.md). A message the index
 * rejects stops it with exit 3 and a line naming topic, partition, offset and field.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../config/index.js';
import type { KafkaMetrics, KafkaOffset, KafkaSettings } from '../../ingest/kafka/index.js';
import { UsageError } from '../usage-error.js';
import type { CommonOptions, ModeContext } from './mode-context.js';
import { mappingOf, openPullIndex } from './pull-index.js';

export type { KafkaOffset } from '../../ingest/kafka/index.js';

/** Options of `index kafka`. */
export interface IndexKafkaOptions extends CommonOptions {
  readonly brokers: readonly string[];
  readonly topic: string;
  readonly index: string;
  readonly group_id: string;
  /** Undefined: resume from the committed offsets (index checkpoint and group). */
  readonly offset: KafkaOffset | undefined;
  /** Extra client options from `--options key=value,...`. */
  readonly options: Readonly<Record<string, string>>;
}

/** Runs `index kafka`; resolves to 0 after a clean stop, throws the error that ended it. */
export async function runIndexKafka(options: IndexKafkaOptions, ctx: ModeContext): Promise<number> {
  const { log } = ctx;
  if (options.config === undefined) throw new UsageError('-c, --config is required for index kafka');
  const loaded = await loadConfig(options.config, ctx.env);
  const mapping = mappingOf(loaded, options.config, options.index);
  // The Kafka client loads only for this mode.
  const kafka = await import('../../ingest/kafka/index.js');
  let settings: KafkaSettings;
  let connection: Awaited<ReturnType<typeof kafka.kafkaConnectionSecurity>>;
  try {
    settings = kafka.parseKafkaSettings(options.options);
    connection = await kafka.kafkaConnectionSecurity(settings.security);
  } catch (e) {
    if (e instanceof kafka.KafkaOptionsError) throw new UsageError(e.message);
    throw e;
  }
  const { index, store, close } = await openPullIndex(loaded, options.index, mapping, ctx, {
    memoryWarning: 'the store is memory: the index is discarded when this process exits, and the next run resumes from the group offsets',
  });
  const metrics = new kafka.KafkaMetrics();
  let server: Server | null = null;
  try {
    if (settings.metricsPort !== undefined) server = await serveMetrics(metrics, settings.metricsHost, settings.metricsPort, ctx);
    log.info(`indexing topic ${options.topic} from ${options.brokers.join(',')} into index ${options.index} (${store.location})`);
    const indexer = new kafka.KafkaIndexer({
      brokers: options.brokers,
      topic: options.topic,
      groupId: options.group_id,
      offset: options.offset,
      settings,
      connection,
      target: index,
      signal: ctx.signal,
      log: { info: (fields, message) => { log.info(fields, message); }, warn: (m) => { log.warn(m); }, debug: (m) => { log.debug(m); } },
      metrics,
    });
    const result = await indexer.run();
    const seq = result.seq ?? index.stats().seq;
    log.info(
      { messages: result.messages, seconds: Number(result.seconds.toFixed(3)), seq },
      `stopped: ${result.messages} messages in ${result.seconds.toFixed(1)} s (${Math.round(result.messages / Math.max(result.seconds, 1e-3))} msg/s); index ${options.index} is at seq=${seq}`,
    );
  } finally {
    try {
      await close();
    } finally {
      if (server !== null) await new Promise((resolve) => server?.close(resolve));
    }
  }
  return 0;
}

async function serveMetrics(metrics: KafkaMetrics, host: string, port: number, ctx: ModeContext): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'not_found', reason: 'only GET /metrics is served here' } }));
      return;
    }
    metrics.render().then(
      ({ contentType, text }) => { res.writeHead(200, { 'content-type': contentType }).end(text); },
      (e: unknown) => { res.writeHead(500).end(String(e)); },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => { resolve(); });
  });
  const address = server.address() as AddressInfo;
  ctx.log.info({ metrics: `http://${host}:${address.port}/metrics` }, `metrics on http://${host}:${address.port}/metrics`);
  return server;
}
