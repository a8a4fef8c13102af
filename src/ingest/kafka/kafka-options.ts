/**
 * `--options key=value,...` of `index kafka`: Kafka-style client settings (the names a Java or
 * librdkafka user knows) translated to @platformatic/kafka's options, plus Yarrow's own settings
 * under `yarrow.` (commit cadence, the /metrics listener). Unknown keys and bad values are errors,
 * so a typo is not silently ignored.
 */

/** Settings of the Kafka consumer and of the indexing loop. */
export interface KafkaSettings {
  readonly clientId: string | undefined;
  /** Classic group protocol session timeout: a crashed indexer's partitions move after this. */
  readonly sessionTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
  /** How long the group waits for members to commit and rejoin during a rebalance. */
  readonly rebalanceTimeoutMs: number;
  /** Longest wait of one fetch when no message is available (also bounds how fast SIGTERM stops). */
  readonly fetchMaxWaitMs: number;
  readonly fetchMinBytes: number;
  readonly fetchMaxBytes: number;
  readonly maxPartitionFetchBytes: number;
  readonly requestTimeoutMs: number;
  readonly connectTimeoutMs: number;
  /** Commit (index, then group offsets) after this many messages since the last commit... */
  readonly commitMessages: number;
  /** ...or once this long has passed since the last commit with something to commit. */
  readonly commitIntervalMs: number;
  /** Serve Prometheus /metrics on this port (0: any free port); undefined: no listener. */
  readonly metricsPort: number | undefined;
  readonly metricsHost: string;
  /** Milliseconds between progress log lines. */
  readonly progressIntervalMs: number;
}

/** Defaults of {@link KafkaSettings}; docs/kafka.md lists the same values. */
export const DEFAULT_KAFKA_SETTINGS: KafkaSettings = {
  clientId: undefined,
  sessionTimeoutMs: 30_000,
  heartbeatIntervalMs: 3_000,
  rebalanceTimeoutMs: 60_000,
  fetchMaxWaitMs: 500,
  fetchMinBytes: 1,
  fetchMaxBytes: 16 * 1024 * 1024,
  maxPartitionFetchBytes: 4 * 1024 * 1024,
  requestTimeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  commitMessages: 50_000,
  commitIntervalMs: 5_000,
  metricsPort: undefined,
  metricsHost: '127.0.0.1',
  progressIntervalMs: 5_000,
};

/** A `--options` entry that is unknown or has a bad value. */
export class KafkaOptionsError extends Error {
  override readonly name = 'KafkaOptionsError';
}

type Setter = (s: Mutable<KafkaSettings>, value: string, key: string) => void;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const int = (min: number, set: (s: Mutable<KafkaSettings>, n: number) => void): Setter => (s, value, key) => {
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new KafkaOptionsError(`--options ${key}=${value}: expected an integer >= ${min}`);
  }
  set(s, Number(value));
};

const SETTERS: Readonly<Record<string, Setter>> = {
  'client.id': (s, v) => { s.clientId = v; },
  'session.timeout.ms': int(1, (s, n) => { s.sessionTimeoutMs = n; }),
  'heartbeat.interval.ms': int(1, (s, n) => { s.heartbeatIntervalMs = n; }),
  'max.poll.interval.ms': int(1, (s, n) => { s.rebalanceTimeoutMs = n; }),
  'rebalance.timeout.ms': int(1, (s, n) => { s.rebalanceTimeoutMs = n; }),
  'fetch.max.wait.ms': int(0, (s, n) => { s.fetchMaxWaitMs = n; }),
  'fetch.min.bytes': int(0, (s, n) => { s.fetchMinBytes = n; }),
  'fetch.max.bytes': int(1, (s, n) => { s.fetchMaxBytes = n; }),
  'max.partition.fetch.bytes': int(1, (s, n) => { s.maxPartitionFetchBytes = n; }),
  'request.timeout.ms': int(1, (s, n) => { s.requestTimeoutMs = n; }),
  'socket.connection.setup.timeout.ms': int(1, (s, n) => { s.connectTimeoutMs = n; }),
  'yarrow.commit.messages': int(1, (s, n) => { s.commitMessages = n; }),
  'yarrow.commit.interval.ms': int(1, (s, n) => { s.commitIntervalMs = n; }),
  'yarrow.metrics.port': (s, v, key) => {
    if (!/^\d+$/.test(v) || Number(v) > 65535) throw new KafkaOptionsError(`--options ${key}=${v}: expected a port from 0 to 65535`);
    s.metricsPort = Number(v);
  },
  'yarrow.metrics.host': (s, v) => { s.metricsHost = v; },
  'yarrow.progress.interval.ms': int(1, (s, n) => { s.progressIntervalMs = n; }),
};

/** The keys `--options` accepts. */
export const KAFKA_OPTION_KEYS: readonly string[] = Object.keys(SETTERS);

/**
 * Applies `--options` over the defaults.
 * @throws KafkaOptionsError naming the key for an unknown key, a bad value, or timeouts that
 *   contradict each other.
 */
export function parseKafkaSettings(options: Readonly<Record<string, string>>): KafkaSettings {
  const s: Mutable<KafkaSettings> = { ...DEFAULT_KAFKA_SETTINGS };
  for (const [key, value] of Object.entries(options)) {
    const set = SETTERS[key] as Setter | undefined;
    if (set === undefined) throw new KafkaOptionsError(`--options: unknown key "${key}"; known keys: ${KAFKA_OPTION_KEYS.join(', ')}`);
    set(s, value, key);
  }
  if (s.heartbeatIntervalMs > s.sessionTimeoutMs) {
    throw new KafkaOptionsError(`--options: heartbeat.interval.ms (${s.heartbeatIntervalMs}) must not exceed session.timeout.ms (${s.sessionTimeoutMs})`);
  }
  // The client requires this ordering; a rebalance needs at least a session to complete anyway.
  if (s.rebalanceTimeoutMs < s.sessionTimeoutMs) s.rebalanceTimeoutMs = s.sessionTimeoutMs;
  return s;
}
