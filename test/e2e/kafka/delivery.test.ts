/**
 * The delivery guarantees of `yarrow index kafka` against a real broker: a SIGKILL mid-stream and
 * a restart index every message exactly once, and a second indexer joining the group (a
 * rebalance) neither loses nor duplicates a message. The messages carry no `_id` and no key, so
 * their ids come from topic, partition and offset: a message indexed by both indexers, or twice
 * under different ids, would show up in the counts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Workspace } from '../cli/cli-harness.js';
import { committedDocs, createTopic, FAST_GROUP, IndexerProcess, produce, startKafkaBroker, until, waitForDocs } from './kafka-harness.js';
import type { KafkaBroker, TestMessage } from './kafka-harness.js';

/** `n` documents without `_id`, numbered `from..from+n-1`, round-robin over partitions. */
function numbered(from: number, n: number, partitions: number): TestMessage[] {
  return Array.from({ length: n }, (_, k) => ({ partition: (from + k) % partitions, value: JSON.stringify({ title: `Message ${from + k}`, genres: ['n'], year: from + k }) }));
}

/** Checks that `docs` hold exactly the numbered messages `0..n-1`, each once, with their content. */
function assertExactly(docs: ReadonlyMap<string, Record<string, unknown>>, n: number): void {
  const years = [...docs.values()].map((d) => d.year as number).sort((a, b) => a - b);
  assert.equal(docs.size, n, `expected ${n} documents, found ${docs.size}`);
  assert.deepEqual(years, Array.from({ length: n }, (_, i) => i), 'every message once, none twice');
  for (const doc of docs.values()) assert.equal(doc.title, `Message ${String(doc.year)}`);
}

describe('yarrow index kafka delivery', () => {
  let broker: KafkaBroker;
  const workspaces: Workspace[] = [];
  const running: IndexerProcess[] = [];

  before(async () => { broker = await startKafkaBroker(); });
  after(async () => {
    for (const p of running) await p.stop('SIGKILL');
    for (const ws of workspaces) await ws.cleanup();
    await broker.stop();
  });

  async function workspace(): Promise<Workspace> {
    const ws = await Workspace.create();
    workspaces.push(ws);
    return ws;
  }

  it('SIGKILL mid-stream, then a restart: every message indexed exactly once (count and content)', async () => {
    const topic = 'killed';
    const total = 6000;
    await createTopic(broker.bootstrap, topic, 3);
    await produce(broker.bootstrap, topic, numbered(0, total, 3));
    const ws = await workspace();
    // Small fetches and frequent commits, so the kill lands between commits with work in flight.
    const slow = `${FAST_GROUP},max.partition.fetch.bytes=4000,yarrow.commit.messages=250`;
    const first = IndexerProcess.start(ws, broker.bootstrap, topic, ['-g', 'killed', '--options', slow, '-l', 'debug']);
    running.push(first);
    await first.waitForLog(/commit seq=3 /, 'a few commits');
    assert.equal(await first.stop('SIGKILL'), null);
    const before = await committedDocs(ws);
    assert.ok(before.size > 0 && before.size < total, `the kill should land mid-stream (had ${before.size} of ${total})`);
    const second = IndexerProcess.start(ws, broker.bootstrap, topic, ['-g', 'killed', '--options', FAST_GROUP]);
    running.push(second);
    const docs = await waitForDocs(ws, total, 'data', 120_000);
    assert.equal(await second.stop(), 0, second.log);
    assertExactly(docs, total);
    assertExactly(await committedDocs(ws), total);
  });

  it('a second indexer joining the group takes partitions over without losing or duplicating a message', async () => {
    const topic = 'shared';
    const partitions = 4;
    await createTopic(broker.bootstrap, topic, partitions);
    const wsA = await workspace();
    const wsB = await workspace();
    const slow = `${FAST_GROUP},max.partition.fetch.bytes=4000,yarrow.commit.messages=200`;
    await produce(broker.bootstrap, topic, numbered(0, 2000, partitions));
    const a = IndexerProcess.start(wsA, broker.bootstrap, topic, ['-g', 'shared', '--options', slow]);
    running.push(a);
    await a.waitForLog(/assigned shared partitions: 0@0, 1@0, 2@0, 3@0/, 'A owning all partitions');
    await until(async () => (await committedDocs(wsA)).size > 0, 'A committing a first batch');
    const b = IndexerProcess.start(wsB, broker.bootstrap, topic, ['-g', 'shared', '--options', slow]);
    running.push(b);
    // B joining makes the group rebalance: A commits, then both get a share of the partitions.
    await b.waitForLog(/assigned shared partitions: \d/, 'B owning some partitions');
    await a.waitForLog(/assigned shared partitions: [^\n]*\n[^]*assigned shared partitions: /, 'A reassigned');
    await produce(broker.bootstrap, topic, numbered(2000, 1000, partitions));
    let docsA = new Map<string, Record<string, unknown>>();
    let docsB = new Map<string, Record<string, unknown>>();
    await until(async () => {
      docsA = await committedDocs(wsA);
      docsB = await committedDocs(wsB);
      return docsA.size + docsB.size >= 3000;
    }, 'all 3,000 messages committed by A or B', 120_000);
    assert.equal(await b.stop(), 0, b.log);
    assert.equal(await a.stop(), 0, a.log);
    docsA = await committedDocs(wsA);
    docsB = await committedDocs(wsB);
    assert.ok(docsB.size > 0, 'B indexed a share');
    const both = [...docsA.keys()].filter((id) => docsB.has(id));
    assert.deepEqual(both, [], 'no message is in both indexes');
    assertExactly(new Map([...docsA, ...docsB]), 3000);
  });
});
