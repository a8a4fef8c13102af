/**
 * A real single-node Apache Kafka 4.x broker (KRaft, broker and controller in one JVM) on loopback,
 * from Maven Central jars, for the Kafka tests and the Kafka benchmark. The jars are fetched once
 * by Maven (scripts/kafka/pom.xml) into .tools/kafka/<version>/lib; each broker gets a fresh
 * temporary log directory, formatted before start, and two free ports. It is ready when a metadata
 * request answers, not after a fixed wait.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Admin } from '@platformatic/kafka';

/** The Kafka version the pom fetches; keep in step with scripts/kafka/pom.xml. */
export const KAFKA_VERSION = '4.1.1';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const POM = join(ROOT, 'scripts/kafka/pom.xml');
/** Where the broker's jars are cached between runs (gitignored). */
export const KAFKA_LIB = join(ROOT, '.tools/kafka', KAFKA_VERSION, 'lib');

const STARTUP_LIMIT_MS = 120_000;

/** A running broker. */
export interface KafkaBroker {
  /** `127.0.0.1:<port>`, for `-b`. */
  readonly bootstrap: string;
  /** The JVM's pid. */
  readonly pid: number;
  /** Stops the broker (SIGTERM, then SIGKILL after 20 s) and removes its data. */
  stop(): Promise<void>;
}

/**
 * Fetches the broker's jars with Maven unless they are cached. Needs `java` (17+) and `mvn` on the
 * PATH; .ci/run installs both.
 */
export function ensureKafkaJars(): string {
  if (existsSync(KAFKA_LIB) && readdirSync(KAFKA_LIB).some((f) => f.startsWith('kafka_2.13-'))) return KAFKA_LIB;
  const mvn = spawnSync('mvn', ['-q', '-B', '-f', POM, 'dependency:copy-dependencies'], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (mvn.error !== undefined) throw new Error(`cannot run mvn to fetch the Kafka jars (${mvn.error.message}); install Maven and Java 17 (.ci/run does)`);
  if (mvn.status !== 0) throw new Error(`mvn could not fetch the Kafka jars (exit ${mvn.status}): ${mvn.stdout}${mvn.stderr}`);
  return KAFKA_LIB;
}

/** Starts a fresh broker with `partitions` as the default partition count of new topics. */
export async function startKafkaBroker(options: { partitions?: number } = {}): Promise<KafkaBroker> {
  const lib = ensureKafkaJars();
  const dir = await mkdtemp(join(tmpdir(), 'yarrow-kafka-'));
  const [port, controllerPort] = await freePorts(2);
  const props = join(dir, 'server.properties');
  await writeFile(props, serverProperties(dir, port, controllerPort, options.partitions ?? 1));
  await writeFile(join(dir, 'log4j2.properties'), LOG4J2);
  const classpath = `${lib}/*`;
  const jvm = ['-Xms256m', '-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Xshare:auto', `-Dlog4j2.configurationFile=${join(dir, 'log4j2.properties')}`, '-cp', classpath];
  // Formatting is what `kafka-storage.sh format` does; the broker refuses unformatted log dirs.
  const format = spawnSync('java', [...jvm, 'kafka.tools.StorageTool', 'format', '-t', clusterId(), '-c', props], { encoding: 'utf8' });
  if (format.status !== 0) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`formatting the Kafka log directory failed (exit ${format.status}): ${format.stdout}${format.stderr}`);
  }
  const child = spawn('java', [...jvm, 'kafka.Kafka', props], { stdio: ['ignore', 'pipe', 'pipe'], detached: false });
  let output = '';
  const keep = (chunk: Buffer): void => { output = (output + chunk.toString()).slice(-20_000); };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const bootstrap = `127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitReady(bootstrap, child, () => output);
  } catch (e) {
    await stop();
    throw e;
  }
  return { bootstrap, pid: child.pid ?? -1, stop };
}

/** Polls a metadata request until the broker answers with itself registered. */
async function waitReady(bootstrap: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + STARTUP_LIMIT_MS;
  const state = { exited: false };
  child.once('exit', () => { state.exited = true; });
  for (;;) {
    if (state.exited) throw new Error(`the Kafka broker exited before it was ready; it printed: ${output()}`);
    if (Date.now() > deadline) throw new Error(`the Kafka broker was not ready within ${STARTUP_LIMIT_MS} ms; it printed: ${output()}`);
    const admin = new Admin({ clientId: 'yarrow-readiness', bootstrapBrokers: [bootstrap], retries: 0, timeout: 2000, connectTimeout: 1000 });
    try {
      const metadata = await admin.metadata({ topics: [] });
      if (metadata.brokers.size > 0) return;
    } catch {
      // Not listening yet, or the controller has not registered the broker yet.
    } finally {
      await admin.close().catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(child.pid, 'SIGTERM');
  const timer = setTimeout(() => { if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL'); }, 20_000);
  await exited;
  clearTimeout(timer);
}

function serverProperties(dir: string, port: number, controllerPort: number, partitions: number): string {
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'inter.broker.listener.name=PLAINTEXT',
    `log.dirs=${join(dir, 'data')}`,
    `num.partitions=${partitions}`,
    'auto.create.topics.enable=true',
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=1',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    // A test group should rebalance at once, not after the 3 s production delay.
    'group.initial.rebalance.delay.ms=0',
    'log.flush.interval.messages=9223372036854775807',
    'num.network.threads=2',
    'num.io.threads=2',
    'background.threads=2',
    '',
  ].join('\n');
}

const LOG4J2 = [
  'status = warn',
  'appender.out.type = Console',
  'appender.out.name = out',
  'appender.out.layout.type = PatternLayout',
  'appender.out.layout.pattern = [%d] %p %m (%c)%n',
  'rootLogger.level = warn',
  'rootLogger.appenderRef.out.ref = out',
  'logger.kafka.name = kafka.server.KafkaRaftServer',
  'logger.kafka.level = info',
  '',
].join('\n');

/** A KRaft cluster id: 16 random bytes in URL-safe base64 without padding. */
/**
 * A random cluster id in Kafka's form (16 bytes, base64url). One in 64 starts with '-', which the
 * storage tool's argument parser reads as an option ("--cluster-id: expected one argument"); Kafka's
 * own Uuid.randomUuid draws again in that case, and so do we.
 */
function clusterId(): string {
  for (;;) {
    const id = Buffer.from(randomUUID().replaceAll('-', ''), 'hex').toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

async function freePorts(n: number): Promise<number[]> {
  // Hold every socket open until all are bound, so the OS cannot hand out the same port twice.
  const servers = await Promise.all(
    Array.from({ length: n }, () =>
      new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => { resolve(server); });
      }),
    ),
  );
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}
