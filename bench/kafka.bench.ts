/**
 * `yarrow index kafka` throughput as a user runs it: a real Kafka broker (scripts/kafka), a topic
 * pre-filled with ../shared/data/npm-packages.jsonl.gz (one document per message), and the built
 * CLI consuming it from the earliest offset until the index commit holds every message. The
 * figure is messages/s from the indexer's start to that commit (group join included).
 *
 * Run: `npm run build && npm run bench:kafka`. YARROW_BENCH_LIMIT caps the messages,
 * YARROW_BENCH_PARTITIONS sets the partition count (default 3).
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { Admin, Producer } from '@platformatic/kafka';
import { startKafkaBroker } from '../scripts/kafka/kafka-broker.js';
import { NPM_SCHEMA_YAML } from './corpus.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist', 'cli.js');
const corpus = join(process.env.YARROW_BENCH_DATA ?? join(root, '..', 'shared', 'data'), 'npm-packages.jsonl.gz');
const limit = Number(process.env.YARROW_BENCH_LIMIT ?? Infinity);
const partitions = Number(process.env.YARROW_BENCH_PARTITIONS ?? 3);
const topic = 'npm';

const CONFIG = `store:
  local: { path: ./data }
${NPM_SCHEMA_YAML}`;

async function fill(bootstrap: string): Promise<number> {
  const admin = new Admin({ clientId: 'bench-admin', bootstrapBrokers: [bootstrap] });
  await admin.createTopics({ topics: [topic], partitions, replicas: 1 });
  await admin.close();
  const producer = new Producer({ clientId: 'bench-producer', bootstrapBrokers: [bootstrap], idempotent: true, acks: -1, compression: 'none' });
  let batch: { topic: string; partition: number; value: Buffer }[] = [];
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(corpus).pipe(createGunzip()), crlfDelay: Infinity })) {
    if (line === '') continue;
    if (n >= limit) break;
    batch.push({ topic, partition: n % partitions, value: Buffer.from(line) });
    n++;
    if (batch.length === 5000) {
      await producer.send({ messages: batch });
      batch = [];
    }
  }
  if (batch.length > 0) await producer.send({ messages: batch });
  await producer.close();
  return n;
}

/** Sum of the partition offsets the last commit recorded. */
async function committedMessages(dir: string): Promise<number> {
  try {
    const manifest = JSON.parse(await readFile(join(dir, 'data', 'npm', 'index.json'), 'utf8')) as { checkpoints?: Record<string, Record<string, number>> };
    return Object.values(manifest.checkpoints?.[`kafka:${topic}`] ?? {}).reduce((a, b) => a + b, 0);
  } catch {
    return 0;
  }
}

const broker = await startKafkaBroker();
const dir = await mkdtemp(join(tmpdir(), 'yarrow-bench-kafka-'));
try {
  process.stderr.write(`broker at ${broker.bootstrap}; filling topic ${topic} (${partitions} partitions) from ${corpus}\n`);
  const fillStart = performance.now();
  const total = await fill(broker.bootstrap);
  process.stderr.write(`produced ${total} messages in ${((performance.now() - fillStart) / 1000).toFixed(1)} s\n`);
  await writeFile(join(dir, 'conf.yml'), CONFIG);
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'index', 'kafka', '-c', 'conf.yml', '-i', 'npm', '-b', broker.bootstrap, '-t', topic, '-o', 'earliest', '--options', 'yarrow.commit.interval.ms=1000'], {
    cwd: dir,
    env: { ...process.env, YARROW_REPORT_MAX_RSS: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => { log += s; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`yarrow index kafka exited early:\n${log}`);
    if ((await committedMessages(dir)) >= total) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  child.kill('SIGTERM');
  const code = await exited;
  const rss = /max_rss_bytes=(\d+)/.exec(log);
  console.log(`yarrow index kafka: ${total} messages (npm-packages, ${partitions} partitions) committed in ${seconds.toFixed(1)} s = ${Math.round(total / seconds)} messages/s; peak RSS ${rss === null ? '?' : Math.round(Number(rss[1]) / 2 ** 20)} MiB; exit ${code}`);
} finally {
  await rm(dir, { recursive: true, force: true });
  await broker.stop();
}
