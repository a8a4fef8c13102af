/**
 * What the Kafka end-to-end tests share: a real broker (scripts/kafka/kafka-broker.ts), topics and
 * a producer, the built `yarrow index kafka` as a long-running child process that is stopped by a
 * signal, and a read-only view of what it committed. Every wait polls a condition with a deadline.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Admin, Producer } from '@platformatic/kafka';
import { Index, LocalDirectory } from '../../../src/index.js';
import { CLI } from '../cli/cli-harness.js';
import type { Workspace } from '../cli/cli-harness.js';

export { startKafkaBroker } from '../../../scripts/kafka/kafka-broker.js';
export type { KafkaBroker } from '../../../scripts/kafka/kafka-broker.js';

/** Client options that make a test group settle fast (the broker's minimum session is 6 s). */
export const FAST_GROUP = 'session.timeout.ms=6000,heartbeat.interval.ms=500,fetch.max.wait.ms=200,yarrow.commit.interval.ms=300';

/** Creates a topic with `partitions` partitions and waits until its metadata is there. */
export async function createTopic(bootstrap: string, topic: string, partitions: number): Promise<void> {
  const admin = new Admin({ clientId: 'yarrow-test-admin', bootstrapBrokers: [bootstrap] });
  try {
    await admin.createTopics({ topics: [topic], partitions, replicas: 1 });
    await until(async () => {
      const md = await admin.metadata({ topics: [topic], forceUpdate: true });
      return md.topics.get(topic)?.partitionsCount === partitions;
    }, `metadata of topic ${topic}`);
  } finally {
    await admin.close();
  }
}

/** A message to produce; `value: null` is a tombstone. */
export interface TestMessage {
  readonly key?: string;
  readonly value: string | null;
  readonly partition?: number;
  /** Unix milliseconds; the broker's clock when absent. */
  readonly timestamp?: bigint;
}

/**
 * Produces `messages` in order and resolves once all are acknowledged. Idempotent, so a send the
 * client retries on a busy machine cannot write a message twice (the tests count messages).
 */
export async function produce(bootstrap: string, topic: string, messages: readonly TestMessage[]): Promise<void> {
  const producer = new Producer({ clientId: 'yarrow-test-producer', bootstrapBrokers: [bootstrap], autocreateTopics: false, idempotent: true, acks: -1 });
  try {
    for (let i = 0; i < messages.length; i += 500) {
      await producer.send({
        messages: messages.slice(i, i + 500).map((m) => ({
          topic,
          ...(m.partition === undefined ? {} : { partition: m.partition }),
          ...(m.key === undefined ? {} : { key: Buffer.from(m.key) }),
          ...(m.timestamp === undefined ? {} : { timestamp: m.timestamp }),
          value: (m.value === null ? null : Buffer.from(m.value)) as Buffer,
        })),
      });
    }
  } finally {
    await producer.close();
  }
}

/** `n` movie documents `<prefix>1..n` spread round-robin over `partitions` partitions. */
export function movieMessages(prefix: string, n: number, partitions = 1): TestMessage[] {
  return Array.from({ length: n }, (_, k) => {
    const i = k + 1;
    return { partition: k % partitions, value: JSON.stringify({ _id: `${prefix}${i}`, title: `Movie ${prefix} ${i}`, genres: ['drama'], year: 2000 + (i % 50) }) };
  });
}

/** A running `yarrow index kafka`. */
export class IndexerProcess {
  private output = '';
  readonly exited: Promise<number | null>;

  private constructor(readonly child: ChildProcess) {
    child.stderr?.setEncoding('utf8').on('data', (s: string) => { this.output += s; });
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => { resolve(signal === null ? code : null); }));
  }

  /** Starts `yarrow index kafka -c conf.yml -i movies -b <bootstrap> -t <topic> ...args` in `ws`. */
  static start(ws: Workspace, bootstrap: string, topic: string, args: readonly string[] = [], dataDir = 'data'): IndexerProcess {
    if (!existsSync(CLI)) throw new Error(`${CLI} does not exist: run 'npm run build' first (npm test does)`);
    const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: `./${dataDir}` };
    delete env.NODE_TEST_CONTEXT;
    delete env.YARROW_LOG_FORMAT;
    const child = spawn(process.execPath, [CLI, 'index', 'kafka', '-c', 'conf.yml', '-i', 'movies', '-b', bootstrap, '-t', topic, ...args], { cwd: ws.dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
    return new IndexerProcess(child);
  }

  /** Everything it logged so far. */
  get log(): string {
    return this.output;
  }

  /** Waits until its log matches `pattern`. */
  async waitForLog(pattern: RegExp, what = String(pattern), timeoutMs = 60_000): Promise<void> {
    await until(() => Promise.resolve(pattern.test(this.output)), `${what}; the indexer logged:\n${this.output}`, timeoutMs);
  }

  /** Sends `signal` and resolves to the exit code (null when killed by the signal). */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}

/** The committed documents of index `movies` under `<ws>/<dataDir>`, by `_id`. */
export async function committedDocs(ws: Workspace, dataDir = 'data'): Promise<Map<string, Record<string, unknown>>> {
  const path = join(ws.dir, dataDir, 'movies');
  const docs = new Map<string, Record<string, unknown>>();
  if (!existsSync(join(path, 'index.json'))) return docs;
  const idx = await Index.open(await LocalDirectory.open(path), { readOnly: true });
  try {
    const res = idx.search({ query: { match_all: {} }, size: 10_000 });
    if (res.total !== res.hits.length) throw new Error(`the tests read at most 10,000 documents; the index has ${res.total}`);
    for (const hit of res.hits) {
      const { _score: _, ...doc } = hit;
      docs.set(hit._id, doc);
    }
  } finally {
    await idx.close();
  }
  return docs;
}

/** The `kafka:<topic>` checkpoint the last commit stored. */
export async function committedCheckpoint(ws: Workspace, topic: string, dataDir = 'data'): Promise<unknown> {
  const idx = await Index.open(await LocalDirectory.open(join(ws.dir, dataDir, 'movies')), { readOnly: true });
  try {
    return idx.checkpoints[`kafka:${topic}`];
  } finally {
    await idx.close();
  }
}

/** Waits until `ws` has `n` committed documents. */
export async function waitForDocs(ws: Workspace, n: number, dataDir = 'data', timeoutMs = 60_000): Promise<Map<string, Record<string, unknown>>> {
  let docs = new Map<string, Record<string, unknown>>();
  await until(async () => {
    docs = await committedDocs(ws, dataDir);
    return docs.size >= n;
  }, `${n} committed documents (have ${docs.size})`, timeoutMs);
  return docs;
}

/** Polls `condition` every 100 ms until it holds or `timeoutMs` passes. */
export async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await condition()) return;
    } catch {
      // The thing polled is not there yet (an index being created, a topic being propagated).
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
