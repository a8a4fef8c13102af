/**
 * `yarrow index kafka` (the built executable) against a real Apache Kafka broker: start positions,
 * resume, tombstones, JSON Lines values, malformed messages and /metrics. The delivery guarantees
 * under SIGKILL and rebalances are in delivery.test.ts. One broker serves every test of this file;
 * each test has its own topic, group and workspace.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Workspace } from '../cli/cli-harness.js';
import { committedCheckpoint, committedDocs, createTopic, FAST_GROUP, IndexerProcess, movieMessages, produce, startKafkaBroker, waitForDocs } from './kafka-harness.js';
import type { KafkaBroker } from './kafka-harness.js';

describe('yarrow index kafka', () => {
  let broker: KafkaBroker;
  const workspaces: Workspace[] = [];
  const running: IndexerProcess[] = [];
  let topicNo = 0;

  before(async () => { broker = await startKafkaBroker(); });
  after(async () => {
    for (const p of running) await p.stop('SIGKILL');
    for (const ws of workspaces) await ws.cleanup();
    await broker.stop();
  });

  async function setup(partitions: number): Promise<{ ws: Workspace; topic: string }> {
    const ws = await Workspace.create();
    workspaces.push(ws);
    const topic = `movies-${++topicNo}`;
    await createTopic(broker.bootstrap, topic, partitions);
    return { ws, topic };
  }

  function start(ws: Workspace, topic: string, args: readonly string[] = []): IndexerProcess {
    const p = IndexerProcess.start(ws, broker.bootstrap, topic, ['-g', `g-${topic}`, '--options', FAST_GROUP, ...args]);
    running.push(p);
    return p;
  }

  it('without -o, a new group starts at the earliest offset and indexes every message of every partition', async () => {
    const { ws, topic } = await setup(3);
    await produce(broker.bootstrap, topic, movieMessages('m', 60, 3));
    const p = start(ws, topic);
    const docs = await waitForDocs(ws, 60);
    assert.equal(await p.stop(), 0, p.log);
    assert.equal(docs.size, 60);
    assert.deepEqual(docs.get('m7'), { _id: 'm7', title: 'Movie m 7', genres: ['drama'], year: 2007 });
    assert.deepEqual(await committedCheckpoint(ws, topic), { 0: 20, 1: 20, 2: 20 });
  });

  it('-o earliest re-reads from the start even when the group has committed offsets', async () => {
    const { ws, topic } = await setup(1);
    await produce(broker.bootstrap, topic, movieMessages('e', 10));
    const first = start(ws, topic);
    await waitForDocs(ws, 10);
    assert.equal(await first.stop(), 0);
    const other = await Workspace.create();
    workspaces.push(other);
    const again = start(other, topic, ['-o', 'earliest']);
    await waitForDocs(other, 10);
    assert.equal(await again.stop(), 0, again.log);
    assert.match(again.log, /assigned movies-\d+ partitions: 0@0\b/);
  });

  it('-o latest skips what is already in the topic and indexes only what comes after', async () => {
    const { ws, topic } = await setup(2);
    await produce(broker.bootstrap, topic, movieMessages('old', 10, 2));
    const p = start(ws, topic, ['-o', 'latest']);
    await p.waitForLog(/assigned movies-\d+ partitions: 0@5, 1@5/, 'assignment at the end of both partitions');
    await produce(broker.bootstrap, topic, movieMessages('new', 4, 2));
    const docs = await waitForDocs(ws, 4);
    assert.equal(await p.stop(), 0, p.log);
    assert.deepEqual([...docs.keys()].sort(), ['new1', 'new2', 'new3', 'new4']);
  });

  it('-o last=N starts N messages before the end of each partition', async () => {
    const { ws, topic } = await setup(1);
    await produce(broker.bootstrap, topic, movieMessages('l', 20));
    const p = start(ws, topic, ['-o', 'last=5']);
    const docs = await waitForDocs(ws, 5);
    await p.waitForLog(/progress: 5 messages/, 'the final progress line');
    assert.equal(await p.stop(), 0, p.log);
    assert.deepEqual([...(await committedDocs(ws)).keys()].sort(), ['l16', 'l17', 'l18', 'l19', 'l20']);
    assert.equal(docs.size, 5);
  });

  it('-o ts=<unixtime> starts at the first message at or after that time', async () => {
    const { ws, topic } = await setup(1);
    const old = movieMessages('t', 6).map((m, i) => ({ ...m, timestamp: BigInt((1_600_000_000 + i) * 1000) }));
    const recent = movieMessages('u', 3).map((m, i) => ({ ...m, timestamp: BigInt((1_700_000_000 + i) * 1000) }));
    await produce(broker.bootstrap, topic, [...old, ...recent]);
    const p = start(ws, topic, ['-o', 'ts=1650000000']);
    await p.waitForLog(/assigned movies-\d+ partitions: 0@6\b/, 'assignment at the first message after the time');
    const docs = await waitForDocs(ws, 3);
    assert.equal(await p.stop(), 0, p.log);
    assert.deepEqual([...docs.keys()].sort(), ['u1', 'u2', 'u3']);
  });

  it('resumes from the committed offsets after a clean stop: nothing re-read, nothing skipped', async () => {
    const { ws, topic } = await setup(2);
    await produce(broker.bootstrap, topic, movieMessages('r', 20, 2));
    const first = start(ws, topic);
    await waitForDocs(ws, 20);
    assert.equal(await first.stop('SIGTERM'), 0, first.log);
    assert.match(first.log, /stopped: 20 messages/);
    await produce(broker.bootstrap, topic, movieMessages('s', 6, 2));
    const second = start(ws, topic);
    await second.waitForLog(/assigned movies-\d+ partitions: 0@10, 1@10/, 'resume at offset 10 of both partitions');
    const docs = await waitForDocs(ws, 26);
    assert.equal(await second.stop('SIGINT'), 0, second.log);
    assert.match(second.log, /stopped: 6 messages/);
    assert.equal(docs.size, 26);
    assert.deepEqual(await committedCheckpoint(ws, topic), { 0: 13, 1: 13 });
  });

  it('a tombstone deletes the document whose _id is its key; order within a partition is kept', async () => {
    const { ws, topic } = await setup(1);
    const doc = (title: string, year: number): string => JSON.stringify({ title, genres: ['x'], year });
    await produce(broker.bootstrap, topic, [
      { key: 'k1', value: doc('one', 2001) },
      { key: 'k2', value: doc('two', 2002) },
      { key: 'k3', value: doc('three', 2003) },
      { key: 'k2', value: null },
      { key: 'k3', value: null },
      { key: 'k3', value: doc('three again', 2013) },
      { key: 'gone', value: null },
    ]);
    const p = start(ws, topic);
    await p.waitForLog(/progress: 7 messages/, 'all 7 messages');
    assert.equal(await p.stop(), 0, p.log);
    const docs = await committedDocs(ws);
    assert.deepEqual([...docs.keys()].sort(), ['k1', 'k3']);
    assert.equal(docs.get('k3')?.title, 'three again');
  });

  it('a JSON Lines value is a batch of documents; documents without _id and key get topic:partition:offset:line', async () => {
    const { ws, topic } = await setup(1);
    const lines = [{ _id: 'b1', title: 'B1', genres: [], year: 1 }, { title: 'B2', genres: [], year: 2 }].map((d) => JSON.stringify(d)).join('\n');
    await produce(broker.bootstrap, topic, [{ value: `${lines}\n` }, { value: JSON.stringify({ title: 'Single', genres: [], year: 3 }) }]);
    const p = start(ws, topic);
    const docs = await waitForDocs(ws, 3);
    assert.equal(await p.stop(), 0, p.log);
    assert.deepEqual([...docs.keys()].sort(), ['b1', `${topic}:0:0:2`, `${topic}:0:1`]);
  });

  it('a value that is not JSON stops the indexer with exit 3 naming topic, partition and offset; what came before stays consistent', async () => {
    const { ws, topic } = await setup(1);
    await produce(broker.bootstrap, topic, [...movieMessages('ok', 3), { value: '{"_id": "broken", "title": ' }, ...movieMessages('after', 2)]);
    const p = start(ws, topic);
    const code = await p.exited;
    assert.equal(code, 3, p.log);
    const errors = p.log.split('\n').filter((l) => l.startsWith('error:'));
    assert.equal(errors.length, 1, p.log);
    assert.match(errors[0], new RegExp(`^error: topic ${topic}, partition 0, offset 3: invalid JSON`));
    const docs = await committedDocs(ws);
    assert.ok(!docs.has('after1'), 'nothing after the bad message is committed');
  });

  it('a document of the wrong type stops the indexer naming topic, partition, offset and field', async () => {
    const { ws, topic } = await setup(1);
    await produce(broker.bootstrap, topic, [...movieMessages('ok', 2), { value: JSON.stringify({ _id: 'bad', title: 'Bad', genres: [], year: 'nineteen' }) }]);
    const p = start(ws, topic);
    assert.equal(await p.exited, 3, p.log);
    assert.match(p.log, new RegExp(`error: topic ${topic}, partition 0, offset 2: field "year": expected int`));
  });

  it('serves Prometheus lag, message and error counters on /metrics with yarrow.metrics.port', async () => {
    const { ws, topic } = await setup(2);
    await produce(broker.bootstrap, topic, movieMessages('p', 8, 2));
    const p = IndexerProcess.start(ws, broker.bootstrap, topic, ['-g', `g-${topic}`, '--options', `${FAST_GROUP},yarrow.metrics.port=0`]);
    running.push(p);
    await waitForDocs(ws, 8);
    await p.waitForLog(/metrics on http:\/\/127\.0\.0\.1:\d+\/metrics/, 'the metrics address');
    const url = /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(p.log)?.[1] ?? '';
    const text = await (await fetch(url)).text();
    assert.equal(await p.stop(), 0, p.log);
    assert.match(text, new RegExp(`yarrow_kafka_messages_total\\{topic="${topic}"\\} 8`));
    assert.match(text, new RegExp(`yarrow_kafka_lag\\{topic="${topic}",partition="0"\\} 0`));
    assert.match(text, new RegExp(`yarrow_kafka_position\\{topic="${topic}",partition="1"\\} 4`));
    assert.match(text, /# TYPE yarrow_kafka_errors_total counter/);
  });

  it('a missing topic is a one-line error and exit 1', async () => {
    const ws = await Workspace.create();
    workspaces.push(ws);
    const p = IndexerProcess.start(ws, broker.bootstrap, 'no-such-topic', ['--options', FAST_GROUP]);
    assert.equal(await p.exited, 1, p.log);
    assert.match(p.log, /error: kafka 127\.0\.0\.1:\d+: topic no-such-topic: /);
  });

  it('an unknown --options key is a usage error (exit 2) listing the known keys', async () => {
    const { ws, topic } = await setup(1);
    const p = IndexerProcess.start(ws, broker.bootstrap, topic, ['--options', 'fetch.wait=1']);
    assert.equal(await p.exited, 2, p.log);
    assert.match(p.log, /error: --options: unknown key "fetch\.wait"; known keys: .*session\.timeout\.ms/);
  });
});
