/**
 * `--options key=value,...` of `index kafka`: Kafka-style client settings (the names a Java or
 * librdkafka user knows) translated to @platformatic/kafka's options, plus Yarrow's own settings
 * under `yarrow.` (commit cadence, the /metrics listener). Unknown keys and bad values are errors,
 * so a typo is not silently ignored.
 */

/** How the client reaches the brokers: Kafka's `security.protocol`, `sasl.*` and `ssl.*` (kafka-connection.ts applies them). */
export interface KafkaSecurity {
  readonly protocol: 'PLAINTEXT' | 'SSL' | 'SASL_PLAINTEXT' | 'SASL_SSL';
  /** `sasl.mechanism` (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) and the credentials. */
  readonly saslMechanism: 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512' | undefined;
  readonly saslUsername: string | undefined;
  readonly saslPassword: string | undefined;
  /** PEM files: the CA bundle, the client certificate and its key (`ssl.*.location`). */
  readonly sslCaLocation: string | undefined;
  readonly sslCertificateLocation: string | undefined;
  readonly sslKeyLocation: string | undefined;
  readonly sslKeyPassword: string | undefined;
  /** `enable.ssl.certificate.verification` (default true). */
  readonly sslVerifyCertificate: boolean;
  /** `ssl.endpoint.identification.algorithm`: `https` (default) checks the broker's host name, empty or `none` does not. */
  readonly sslVerifyHostname: boolean;
}

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
  readonly security: KafkaSecurity;
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
  security: {
    protocol: 'PLAINTEXT',
    saslMechanism: undefined,
    saslUsername: undefined,
    saslPassword: undefined,
    sslCaLocation: undefined,
    sslCertificateLocation: undefined,
    sslKeyLocation: undefined,
    sslKeyPassword: undefined,
    sslVerifyCertificate: true,
    sslVerifyHostname: true,
  },
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

const oneOf = <T extends string>(values: readonly T[], set: (s: Mutable<KafkaSecurity>, v: T) => void): Setter => (s, value, key) => {
  const v = value.toUpperCase() as T;
  if (!values.includes(v)) throw new KafkaOptionsError(`--options ${key}=${value}: expected one of ${values.join(', ')}`);
  set(security(s), v);
};
const text = (set: (s: Mutable<KafkaSecurity>, v: string) => void): Setter => (s, value) => { set(security(s), value); };
const flag = (set: (s: Mutable<KafkaSecurity>, v: boolean) => void): Setter => (s, value, key) => {
  if (value !== 'true' && value !== 'false') throw new KafkaOptionsError(`--options ${key}=${value}: expected true or false`);
  set(security(s), value === 'true');
};
/** The settings' own copy of the security part (the defaults object is shared). */
function security(s: Mutable<KafkaSettings>): Mutable<KafkaSecurity> {
  if (s.security === DEFAULT_KAFKA_SETTINGS.security) s.security = { ...s.security };
  return s.security;
}
/** Java keystores cannot be read by Node's TLS: say what to use instead. */
const javaStore: Setter = (_s, _value, key) => {
  throw new KafkaOptionsError(`--options ${key}: Java keystores (JKS/PKCS12) are not supported; give PEM files with ssl.ca.location, ssl.certificate.location and ssl.key.location`);
};

/** `sasl.jaas.config` of Java clients: `...LoginModule required username="u" password="p";`. */
function parseJaas(s: Mutable<KafkaSettings>, value: string, key: string): void {
  const username = /username\s*=\s*"([^"]*)"/.exec(value);
  const password = /password\s*=\s*"([^"]*)"/.exec(value);
  if (username === null || password === null) throw new KafkaOptionsError(`--options ${key}: expected a login module with username="..." and password="..."`);
  const sec = security(s);
  sec.saslUsername = username[1];
  sec.saslPassword = password[1];
}

/** Kafka's own security keys (librdkafka and Java client names). */
const SECURITY_SETTERS: Readonly<Record<string, Setter>> = {
  'security.protocol': oneOf(['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'] as const, (s, v) => { s.protocol = v; }),
  'sasl.mechanism': oneOf(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const, (s, v) => { s.saslMechanism = v; }),
  'sasl.mechanisms': oneOf(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const, (s, v) => { s.saslMechanism = v; }),
  'sasl.username': text((s, v) => { s.saslUsername = v; }),
  'sasl.password': text((s, v) => { s.saslPassword = v; }),
  'sasl.jaas.config': parseJaas,
  'ssl.ca.location': text((s, v) => { s.sslCaLocation = v; }),
  'ssl.certificate.location': text((s, v) => { s.sslCertificateLocation = v; }),
  'ssl.key.location': text((s, v) => { s.sslKeyLocation = v; }),
  'ssl.key.password': text((s, v) => { s.sslKeyPassword = v; }),
  'enable.ssl.certificate.verification': flag((s, v) => { s.sslVerifyCertificate = v; }),
  'ssl.endpoint.identification.algorithm': (s, value, key) => {
    if (value !== '' && value !== 'https' && value !== 'none') throw new KafkaOptionsError(`--options ${key}=${value}: expected https, none or nothing`);
    security(s).sslVerifyHostname = value === 'https';
  },
  'ssl.truststore.location': javaStore,
  'ssl.keystore.location': javaStore,
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
  ...SECURITY_SETTERS,
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
  checkSecurity(s.security, options);
  return s;
}

/** Settings that only make sense together: SASL keys need a SASL protocol and credentials, ssl.* a TLS one. */
function checkSecurity(sec: KafkaSecurity, options: Readonly<Record<string, string>>): void {
  const sasl = sec.protocol.startsWith('SASL_');
  const tls = sec.protocol === 'SSL' || sec.protocol === 'SASL_SSL';
  const given = Object.keys(options);
  const saslKey = given.find((k) => k.startsWith('sasl.'));
  const sslKey = given.find((k) => k.startsWith('ssl.') || k === 'enable.ssl.certificate.verification');
  if (!sasl && saslKey !== undefined) throw new KafkaOptionsError(`--options ${saslKey}: needs security.protocol=SASL_SSL or SASL_PLAINTEXT (it is ${sec.protocol})`);
  if (!tls && sslKey !== undefined) throw new KafkaOptionsError(`--options ${sslKey}: needs security.protocol=SSL or SASL_SSL (it is ${sec.protocol})`);
  if (sasl && (sec.saslUsername === undefined || sec.saslPassword === undefined)) {
    throw new KafkaOptionsError(`--options security.protocol=${sec.protocol}: needs sasl.username and sasl.password (or sasl.jaas.config)`);
  }
  if ((sec.sslCertificateLocation === undefined) !== (sec.sslKeyLocation === undefined)) {
    throw new KafkaOptionsError('--options: ssl.certificate.location and ssl.key.location go together (a client certificate needs its key)');
  }
}
