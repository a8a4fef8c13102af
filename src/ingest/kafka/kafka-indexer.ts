/**
 * The Kafka pull indexer: joins the consumer group, fetches the partitions it owns, indexes every
 * record in offset order (upserts and tombstone deletes) and commits. A commit first stores the
 * next offset of every partition in index.json with the index commit, and only once that is
 * durable commits the same offsets to the group; a restart resumes from the later of the two
 * (start-position.ts), so nothing is lost and, since writes are upserts by a stable `_id`, nothing
 * is indexed twice. On a rebalance the group's JoinGroup is held (gated-consumer.ts) until what
 * was indexed is committed, so the next owner of a partition starts where this one stopped.
 */
import { ConnectionPool } from '@platformatic/kafka';
import type { BatchSource } from '../../engine/index.js';
import { describeCause, SourceError } from '../source-error.js';
import { GatedConsumer } from './gated-consumer.js';
import { KafkaErrorKind } from './kafka-metrics.js';
import type { KafkaMetrics } from './kafka-metrics.js';
import type { KafkaConnectionSecurity } from './kafka-connection.js';
import type { KafkaSettings } from './kafka-options.js';
import { applyFetches } from './record-applier.js';
import type { ApplyTarget } from './record-applier.js';
import { fetchPartitions } from './partition-fetcher.js';
import type { PartitionFetch } from './partition-fetcher.js';
import { checkpointKey, checkpointValue, readCheckpoint, requestedPosition, resumePosition } from './start-position.js';
import type { KafkaOffset } from './start-position.js';

/** The part of the engine's Index the Kafka indexer uses. */
export interface KafkaTarget extends ApplyTarget {
  upsert(docs: readonly unknown[], source: BatchSource): Promise<unknown>;
  delete(ids: readonly string[]): Promise<void>;
  commit(): Promise<{ readonly seq: number }>;
  rollback(): Promise<unknown>;
  setCheckpoint(source: string, position: unknown): void;
  readonly checkpoints: Readonly<Record<string, unknown>>;
}

/** Where the indexer logs. */
export interface KafkaLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(message: string): void;
  debug(message: string): void;
}

/** Wiring of a {@link KafkaIndexer}. */
export interface KafkaIndexerOptions {
  readonly brokers: readonly string[];
  readonly topic: string;
  readonly groupId: string;
  /** `-o`: where each partition starts the first time this process owns it; undefined: resume. */
  readonly offset: KafkaOffset | undefined;
  readonly settings: KafkaSettings;
  readonly target: KafkaTarget;
  /** Aborting it stops fetching, commits and leaves the group. */
  readonly signal: AbortSignal;
  readonly log: KafkaLog;
  readonly metrics?: KafkaMetrics;
  /** TLS and SASL options from `--options` (kafka-connection.ts); none: plaintext. */
  readonly connection?: KafkaConnectionSecurity;
}

/** What a run did. */
export interface KafkaRunResult {
  readonly messages: number;
  readonly seconds: number;
  readonly seq: number | undefined;
}

/** Runs the consumer loop until the signal aborts or an error stops it. */
export class KafkaIndexer {
  private readonly consumer: GatedConsumer;
  private readonly pool: ConnectionPool;
  /** Next offset per owned partition (what is indexed, committed or not). */
  private positions = new Map<number, bigint>();
  /** Partitions positioned by `-o` already: `-o` applies once per partition per run. */
  private readonly seeded = new Set<number>();
  private readonly lag = new Map<number, bigint>();
  private generation = -1;
  private awaitingJoin = false;
  private dirty = false;
  private uncommitted = 0;
  private lastCommit = performance.now();
  private messages = 0;
  private lastSeq: number | undefined;
  private groupError: Error | null = null;
  private wake: () => void = () => undefined;

  constructor(private readonly options: KafkaIndexerOptions) {
    const s = options.settings;
    const clientId = s.clientId ?? `yarrow-${process.pid}`;
    this.consumer = new GatedConsumer({
      clientId,
      groupId: options.groupId,
      bootstrapBrokers: [...options.brokers],
      sessionTimeout: s.sessionTimeoutMs,
      heartbeatInterval: s.heartbeatIntervalMs,
      rebalanceTimeout: s.rebalanceTimeoutMs,
      timeout: s.requestTimeoutMs,
      connectTimeout: s.connectTimeoutMs,
      autocommit: false,
      ...options.connection,
    });
    this.pool = new ConnectionPool(`${clientId}-fetch`, { connectTimeout: s.connectTimeoutMs, requestTimeout: Math.max(s.requestTimeoutMs, s.fetchMaxWaitMs + 5000), ...options.connection });
  }

  /** Indexes until stopped; resolves after the final commit. */
  async run(): Promise<KafkaRunResult> {
    const { topic, signal, log } = this.options;
    const started = performance.now();
    const onAbort = (): void => { this.wake(); };
    signal.addEventListener('abort', onAbort);
    const progress = setInterval(() => { this.logProgress(started); }, this.options.settings.progressIntervalMs);
    progress.unref();
    try {
      await this.join();
      log.info({ topic, group: this.options.groupId }, `consuming topic ${topic} as group ${this.options.groupId}`);
      await this.loop();
      await this.commit('shutdown');
      this.logProgress(started);
    } catch (e) {
      this.positions = new Map();
      this.dirty = false;
      await this.options.target.rollback().catch(() => undefined);
      throw e;
    } finally {
      clearInterval(progress);
      signal.removeEventListener('abort', onAbort);
      this.consumer.release();
      await closeConsumer(this.consumer).catch((e: unknown) => { log.warn(`leaving the consumer group failed: ${describeCause(e)}`); });
      await this.pool.close().catch(() => undefined);
    }
    return { messages: this.messages, seconds: (performance.now() - started) / 1000, seq: this.lastSeq };
  }

  private async join(): Promise<void> {
    const { topic, brokers } = this.options;
    try {
      const metadata = await this.consumer.metadata({ topics: [topic], autocreateTopics: false });
      if (!metadata.topics.has(topic)) throw new Error('no such topic');
    } catch (e) {
      throw new SourceError(`kafka ${brokers.join(',')}: topic ${topic}: ${describeCause(e)}`, `kafka:${topic}`, { cause: e });
    }
    this.consumer.on('consumer:group:rebalance', () => {
      // Runs before the client sends JoinGroup: hold it until what was indexed is committed.
      this.consumer.hold();
      this.awaitingJoin = true;
      this.wake();
    });
    this.consumer.on('consumer:group:join', () => {
      this.awaitingJoin = false;
      this.wake();
    });
    this.consumer.on('error', (e: Error) => {
      this.groupError = e;
      this.options.metrics?.error(topic, KafkaErrorKind.group);
      this.wake();
    });
    this.consumer.topics.track(topic);
    await this.consumer.joinGroup({});
  }

  private async loop(): Promise<void> {
    const { signal, topic, settings, log } = this.options;
    while (!signal.aborted) {
      if (this.groupError !== null) throw new SourceError(`kafka group ${this.options.groupId}: ${describeCause(this.groupError)}`, `kafka:${topic}`, { cause: this.groupError });
      if (this.consumer.held) {
        await this.commit('rebalance');
        this.consumer.release();
        continue;
      }
      if (this.awaitingJoin) {
        await this.sleep(100);
        continue;
      }
      if (this.consumer.generationId !== this.generation) {
        await this.assign();
        continue;
      }
      if (this.positions.size === 0) {
        await this.sleep(settings.fetchMaxWaitMs);
        continue;
      }
      const generation = this.consumer.generationId;
      let fetched: PartitionFetch[];
      try {
        fetched = await fetchPartitions(this.consumer, this.pool, topic, this.positions, {
          maxWaitMs: settings.fetchMaxWaitMs,
          minBytes: settings.fetchMinBytes,
          maxBytes: settings.fetchMaxBytes,
          maxPartitionBytes: settings.maxPartitionFetchBytes,
        });
      } catch (e) {
        if (this.stopping()) break;
        this.options.metrics?.error(topic, KafkaErrorKind.fetch);
        log.warn(`fetching ${topic} failed, retrying in 1 s: ${describeCause(e)}`);
        await this.sleep(1000);
        continue;
      }
      // Records fetched for an assignment that has since changed may belong to another member now.
      if (this.assignmentChanging(generation)) continue;
      const applied = await applyFetches(this.options.target, fetched, this.positions);
      for (const f of fetched) {
        const position = this.positions.get(f.partition) ?? f.nextOffset;
        const lag = f.highWatermark > position ? f.highWatermark - position : 0n;
        this.lag.set(f.partition, lag);
        this.options.metrics?.partition(topic, f.partition, position, lag);
      }
      if (applied.advanced) this.dirty = true;
      this.uncommitted += applied.messages;
      this.messages += applied.messages;
      this.options.metrics?.consumed(topic, applied.messages);
      if (this.dirty && (this.uncommitted >= settings.commitMessages || performance.now() - this.lastCommit >= settings.commitIntervalMs)) {
        await this.commit('cadence');
      }
    }
  }

  /** Positions every partition of the new assignment. */
  private async assign(): Promise<void> {
    const { topic, offset, log } = this.options;
    const generation = this.consumer.generationId;
    const owned = this.consumer.assignments?.find((a) => a.topic === topic)?.partitions ?? [];
    for (const p of this.positions.keys()) if (!owned.includes(p)) this.options.metrics?.forget(topic, p);
    const positions = new Map<number, bigint>();
    if (owned.length > 0) {
      const fromIndex = readCheckpoint(this.options.target.checkpoints, topic);
      const committed = await this.consumer.listCommittedOffsets({ topics: [{ topic, partitions: owned }] });
      const fromGroup: (bigint | undefined)[] = committed.get(topic) ?? [];
      const earliest: (bigint | undefined)[] = (await this.consumer.listOffsets({ topics: [topic], timestamp: -2n })).get(topic) ?? [];
      const latest: (bigint | undefined)[] = (await this.consumer.listOffsets({ topics: [topic], timestamp: -1n })).get(topic) ?? [];
      const atTime: (bigint | undefined)[] = offset?.kind === 'timestamp' ? (await this.consumer.listOffsets({ topics: [topic], timestamp: BigInt(offset.epochMs) })).get(topic) ?? [] : [];
      for (const p of owned) {
        const at = atTime[p];
        const bounds = { earliest: earliest[p] ?? 0n, latest: latest[p] ?? 0n, atTimestamp: at === undefined || at < 0n ? undefined : at };
        let position: bigint;
        if (offset !== undefined && !this.seeded.has(p)) {
          position = requestedPosition(offset, bounds);
        } else {
          const committedAt = fromGroup[p];
          const group = committedAt === undefined || committedAt < 0n ? undefined : committedAt;
          position = resumePosition(fromIndex.get(p), group) ?? bounds.earliest;
        }
        // Retention may have deleted what the checkpoint points at.
        if (position < bounds.earliest) position = bounds.earliest;
        this.seeded.add(p);
        positions.set(p, position);
      }
    }
    // A rebalance that completed while these were listed: position again for the newer assignment.
    if (this.assignmentChanging(generation)) return;
    this.positions = positions;
    this.generation = generation;
    const list = [...positions].map(([p, o]) => `${p}@${o}`).join(', ');
    log.info({ generation, partitions: Object.fromEntries([...positions].map(([p, o]) => [p, Number(o)])) }, `assigned ${topic} partitions: ${list === '' ? 'none' : list}`);
  }

  /** Commits the index with the partition offsets, then commits the same offsets to the group. */
  private async commit(reason: string): Promise<void> {
    const { target, topic, log } = this.options;
    if (this.dirty) {
      const merged = readCheckpoint(target.checkpoints, topic);
      for (const [p, o] of this.positions) merged.set(p, o);
      target.setCheckpoint(checkpointKey(topic), checkpointValue(merged));
      const { seq } = await target.commit();
      this.lastSeq = seq;
      this.dirty = false;
      this.options.metrics?.committed(topic);
      log.debug(`committed ${this.uncommitted} messages of ${topic} (${reason}) at seq=${seq}`);
    }
    this.uncommitted = 0;
    this.lastCommit = performance.now();
    if (this.positions.size === 0 || this.generation !== this.consumer.generationId) return;
    const offsets = [...this.positions].map(([partition, offset]) => ({ topic, partition, offset, leaderEpoch: -1 }));
    try {
      await withTimeout(this.consumer.commit({ offsets }), 10_000);
    } catch (e) {
      this.options.metrics?.error(topic, KafkaErrorKind.groupCommit);
      log.warn(`committing offsets to group ${this.options.groupId} failed (${reason}); index.json holds them: ${describeCause(e)}`);
    }
  }

  /** Whether the stop signal fired (a method, so checks after an await are not narrowed away). */
  private stopping(): boolean {
    return this.options.signal.aborted;
  }

  /** Whether the assignment `generation` was computed for is being or has been replaced. */
  private assignmentChanging(generation: number): boolean {
    return this.consumer.held || this.awaitingJoin || this.consumer.generationId !== generation;
  }

  private logProgress(started: number): void {
    const seconds = Math.max((performance.now() - started) / 1000, 1e-3);
    const lag = Object.fromEntries([...this.lag].sort((a, b) => a[0] - b[0]).map(([p, l]) => [String(p), Number(l)]));
    const lagText = Object.entries(lag).map(([p, l]) => `p${p}=${l}`).join(' ');
    this.options.log.info(
      { messages: this.messages, messagesPerSecond: Math.round(this.messages / seconds), lag },
      `progress: ${this.messages} messages, ${Math.round(this.messages / seconds)} msg/s, lag ${lagText === '' ? 'unknown' : lagText}`,
    );
  }

  /** Waits `ms`, or less when woken (abort, rebalance, join). */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}

/** Leaves the group and closes connections (force: also when a fetch is still in flight). */
function closeConsumer(consumer: GatedConsumer): Promise<void> {
  return new Promise((resolve, reject) => {
    consumer.close(true, (error) => { if (error === null) resolve(); else reject(error); });
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => { reject(new Error(`no answer within ${ms} ms`)); }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => { clearTimeout(timer); });
}
