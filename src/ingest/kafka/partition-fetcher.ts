/**
 * One fetch round over the partitions this process owns: a Fetch request per partition leader on
 * a connection pool of its own (a fetch waiting for data must not hold up heartbeats and commits),
 * flattened to the records at or after each requested offset.
 */
import type { ConnectionPool, Consumer, FetchOptions, RecordsBatch } from '@platformatic/kafka';

type FetchRequestTopic = FetchOptions<Buffer, Buffer, Buffer, Buffer>['topics'][number];
type FetchResponse = Awaited<ReturnType<Consumer['fetch']>>;
import type { KafkaRecordInput } from './message-decoder.js';

/** The result of a fetch for one partition. */
export interface PartitionFetch {
  readonly partition: number;
  /** Records at or after the requested offset, in offset order (control records excluded). */
  readonly records: KafkaRecordInput[];
  /** Offset after the last record or control marker fetched: the position once these are indexed. */
  readonly nextOffset: bigint;
  readonly highWatermark: bigint;
}

/** How much one fetch asks for. */
export interface FetchLimits {
  readonly maxWaitMs: number;
  readonly minBytes: number;
  readonly maxBytes: number;
  readonly maxPartitionBytes: number;
}

const IS_CONTROL = 0b100000;

/** Fetches `positions` (partition -> next offset) of `topic` once. */
export async function fetchPartitions(
  consumer: Consumer,
  pool: ConnectionPool,
  topic: string,
  positions: ReadonlyMap<number, bigint>,
  limits: FetchLimits,
): Promise<PartitionFetch[]> {
  const metadata = await consumer.metadata({ topics: [topic] });
  const topicMetadata = metadata.topics.get(topic);
  if (topicMetadata === undefined) throw new Error(`topic ${topic} is not in the cluster metadata`);
  const byLeader = new Map<number, FetchRequestTopic>();
  for (const [partition, fetchOffset] of positions) {
    const leader = topicMetadata.partitions[partition].leader;
    let request = byLeader.get(leader);
    if (request === undefined) {
      request = { topicId: topicMetadata.id, partitions: [] };
      byLeader.set(leader, request);
    }
    request.partitions.push({ partition, fetchOffset, partitionMaxBytes: limits.maxPartitionBytes, currentLeaderEpoch: -1, lastFetchedEpoch: -1 });
  }
  const responses = await Promise.all(
    [...byLeader].map(([node, request]) =>
      consumer.fetch({ node, topics: [request], connectionPool: pool, maxWaitTime: limits.maxWaitMs, minBytes: limits.minBytes, maxBytes: limits.maxBytes }),
    ),
  );
  const out: PartitionFetch[] = [];
  for (const response of responses) collect(response, topic, positions, out);
  return out;
}

function collect(response: FetchResponse, topic: string, positions: ReadonlyMap<number, bigint>, out: PartitionFetch[]): void {
  for (const topicResponse of response.responses) {
    for (const p of topicResponse.partitions) {
      const from = positions.get(p.partitionIndex);
      if (from === undefined) continue;
      out.push({ partition: p.partitionIndex, highWatermark: p.highWatermark, ...records(p.records ?? [], topic, p.partitionIndex, from) });
    }
  }
}

function records(batches: readonly RecordsBatch[], topic: string, partition: number, from: bigint): { records: KafkaRecordInput[]; nextOffset: bigint } {
  const out: KafkaRecordInput[] = [];
  let nextOffset = from;
  for (const batch of batches) {
    const end = batch.firstOffset + BigInt(batch.lastOffsetDelta) + 1n;
    if (end > nextOffset) nextOffset = end;
    if ((batch.attributes & IS_CONTROL) !== 0) continue;
    for (const r of batch.records) {
      const offset = batch.firstOffset + BigInt(r.offsetDelta);
      // A fetch starts at the batch holding `from`, so a batch can begin before it.
      if (offset < from) continue;
      out.push({ topic, partition, offset, key: r.key, value: r.value });
    }
  }
  return { records: out, nextOffset };
}
