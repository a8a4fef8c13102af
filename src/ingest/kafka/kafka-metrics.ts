/**
 * Prometheus metrics of the Kafka indexer, in their own registry (never prom-client's global one):
 * messages consumed, lag and position per partition, commits, and errors by kind. `index kafka`
 * serves them on /metrics when `--options yarrow.metrics.port=...` is given; an HTTP mode that
 * hosts an indexer could merge this registry into its own.
 */
import { Counter, Gauge, Registry } from 'prom-client';

/** Kinds of errors counted in `yarrow_kafka_errors_total`. */
export const KafkaErrorKind = {
  /** A fetch failed (broker unreachable, leader moved); retried. */
  fetch: 'fetch',
  /** Committing offsets to the consumer group failed; the index checkpoint still holds them. */
  groupCommit: 'group_commit',
  /** A message could not be indexed; the indexer stopped. */
  invalidMessage: 'invalid_message',
  /** The consumer group reported an error (failed rejoin). */
  group: 'group',
} as const;
export type KafkaErrorKind = (typeof KafkaErrorKind)[keyof typeof KafkaErrorKind];

/** The indexer's counters and gauges. */
export class KafkaMetrics {
  readonly registry = new Registry();
  private readonly messages: Counter<'topic'>;
  private readonly errors: Counter<'topic' | 'kind'>;
  private readonly commits: Counter<'topic'>;
  private readonly lagGauge: Gauge<'topic' | 'partition'>;
  private readonly positionGauge: Gauge<'topic' | 'partition'>;

  constructor() {
    const registers = [this.registry];
    this.messages = new Counter({ name: 'yarrow_kafka_messages_total', help: 'Kafka messages indexed (documents, batches and tombstones)', labelNames: ['topic'], registers });
    this.errors = new Counter({ name: 'yarrow_kafka_errors_total', help: 'Kafka indexer errors by kind', labelNames: ['topic', 'kind'], registers });
    this.commits = new Counter({ name: 'yarrow_kafka_commits_total', help: 'Index commits that recorded Kafka offsets', labelNames: ['topic'], registers });
    this.lagGauge = new Gauge({ name: 'yarrow_kafka_lag', help: 'Messages between the high watermark and the next offset to index, per partition', labelNames: ['topic', 'partition'], registers });
    this.positionGauge = new Gauge({ name: 'yarrow_kafka_position', help: 'Next offset to index, per partition', labelNames: ['topic', 'partition'], registers });
  }

  consumed(topic: string, messages: number): void {
    this.messages.inc({ topic }, messages);
  }

  error(topic: string, kind: KafkaErrorKind): void {
    this.errors.inc({ topic, kind });
  }

  committed(topic: string): void {
    this.commits.inc({ topic });
  }

  /** Sets lag and position of a partition. */
  partition(topic: string, partition: number, position: bigint, lag: bigint): void {
    this.lagGauge.set({ topic, partition: String(partition) }, Number(lag));
    this.positionGauge.set({ topic, partition: String(partition) }, Number(position));
  }

  /** Drops the gauges of a partition this process no longer owns. */
  forget(topic: string, partition: number): void {
    this.lagGauge.remove({ topic, partition: String(partition) });
    this.positionGauge.remove({ topic, partition: String(partition) });
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
