/**
 * Where each partition starts reading. The index's own checkpoint (`kafka:<topic>` in index.json,
 * written by the commit that contains the messages) is the truth about what this index holds; the
 * group's committed offset says what any member of the group has durably indexed. Without `-o` a
 * partition resumes at the larger of the two: after a crash between the index commit and the group
 * commit the index is ahead, and after another member owned the partition the group is ahead.
 */

/** Where a partition starts when `-o` is given (SPEC §1.1). */
export type KafkaOffset =
  | { readonly kind: 'earliest' }
  | { readonly kind: 'latest' }
  /** The first message at or after this time (epoch milliseconds). */
  | { readonly kind: 'timestamp'; readonly epochMs: number }
  | { readonly kind: 'last'; readonly count: number };

/** The offsets of one partition that a start position is computed from. */
export interface PartitionBounds {
  /** First offset still in the log. */
  readonly earliest: bigint;
  /** Offset of the next message to be written (the high watermark). */
  readonly latest: bigint;
  /** First offset with a timestamp at or after the `ts=` time; undefined when none is. */
  readonly atTimestamp?: bigint | undefined;
}

/** Checkpoint key of a topic in index.json. */
export function checkpointKey(topic: string): string {
  return `kafka:${topic}`;
}

/** Reads the next offset of every partition from the index's checkpoints (anything malformed is ignored). */
export function readCheckpoint(checkpoints: Readonly<Record<string, unknown>>, topic: string): Map<number, bigint> {
  const out = new Map<number, bigint>();
  const raw = checkpoints[checkpointKey(topic)];
  if (typeof raw !== 'object' || raw === null) return out;
  for (const [partition, offset] of Object.entries(raw as Record<string, unknown>)) {
    if (/^\d+$/.test(partition) && typeof offset === 'number' && Number.isSafeInteger(offset) && offset >= 0) out.set(Number(partition), BigInt(offset));
  }
  return out;
}

/** The checkpoint value stored for a topic: `{ "<partition>": nextOffset }`. */
export function checkpointValue(positions: ReadonlyMap<number, bigint>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [p, offset] of [...positions].sort((a, b) => a[0] - b[0])) out[String(p)] = Number(offset);
  return out;
}

/** Resume position without `-o`: the later of the index's and the group's, or undefined if neither exists. */
export function resumePosition(index: bigint | undefined, group: bigint | undefined): bigint | undefined {
  if (index === undefined) return group;
  if (group === undefined) return index;
  return index > group ? index : group;
}

/** The position `-o` asks for, within the partition's bounds. */
export function requestedPosition(offset: KafkaOffset, bounds: PartitionBounds): bigint {
  switch (offset.kind) {
    case 'earliest':
      return bounds.earliest;
    case 'latest':
      return bounds.latest;
    case 'timestamp':
      return bounds.atTimestamp ?? bounds.latest;
    case 'last': {
      const from = bounds.latest - BigInt(offset.count);
      return from > bounds.earliest ? from : bounds.earliest;
    }
  }
}
