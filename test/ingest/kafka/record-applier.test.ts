import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Index } from '../../../src/engine/index.js';
import { applyFetches } from '../../../src/ingest/kafka/record-applier.js';
import type { PartitionFetch } from '../../../src/ingest/kafka/partition-fetcher.js';
import { MemoryDirectory } from '../../../src/storage/index.js';

const mapping = { fields: { _id: { type: 'id' }, title: { type: 'text' }, year: { type: 'int' } } };

function fetch(partition: number, from: bigint, values: (string | null)[], keys: (string | undefined)[] = []): PartitionFetch {
  return {
    partition,
    highWatermark: from + BigInt(values.length),
    nextOffset: from + BigInt(values.length),
    records: values.map((v, i) => ({ topic: 't', partition, offset: from + BigInt(i), key: keys[i] === undefined ? null : Buffer.from(keys[i]), value: v === null ? null : Buffer.from(v) })),
  };
}

async function ids(index: Index): Promise<string[]> {
  await index.refresh();
  return index.search({ query: { match_all: {} }, size: 100 }).hits.map((h) => h._id).sort();
}

describe('applyFetches', () => {
  it('keeps the order of upserts and tombstones within a partition and advances positions', async () => {
    const index = await Index.open(new MemoryDirectory('m'), { mapping, refreshIntervalMs: 0 });
    const positions = new Map<number, bigint>([[0, 0n], [1, 5n]]);
    const result = await applyFetches(index, [
      fetch(0, 0n, ['{"title":"a"}', null, '{"title":"a2"}', '{"title":"b"}', null], ['a', 'a', 'a', 'b', 'b']),
      fetch(1, 5n, ['{"_id":"c","year":1}']),
    ], positions);
    assert.deepEqual(result, { messages: 6, advanced: true });
    assert.deepEqual(positions, new Map([[0, 5n], [1, 6n]]));
    assert.deepEqual(await ids(index), ['a', 'c']);
    assert.equal(index.search({ query: { match_all: {} } }).hits.find((h) => h._id === 'a')?.title, 'a2');
    await index.close();
  });

  it('a rejected document names topic, partition, offset and field, and leaves that partition where it was', async () => {
    const index = await Index.open(new MemoryDirectory('m'), { mapping, refreshIntervalMs: 0 });
    const positions = new Map<number, bigint>([[3, 10n]]);
    await assert.rejects(applyFetches(index, [fetch(3, 10n, ['{"_id":"ok","year":1}', '{"_id":"bad","year":"x"}'])], positions), /topic t, partition 3, offset 11: field "year": expected int/);
    assert.deepEqual(positions, new Map([[3, 10n]]));
    await index.close();
  });
});
