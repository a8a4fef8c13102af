/**
 * Turns one Kafka record into index operations. A value is one JSON document, or a JSON Lines
 * batch of documents; a null value (tombstone) with a key deletes the document whose `_id` is the
 * key. A document without `_id` takes the record key when the value holds one document; otherwise
 * (no key, or a batch) it gets `<topic>:<partition>:<offset>[:<line>]`, a stable id, so reading
 * the same record twice (after a crash) replaces the document instead of adding a copy.
 */
import type { DocumentLocation } from '../../engine/index.js';
import { ErrorCode, YarrowError } from '../../engine/index.js';

/** The parts of a Kafka record the decoder reads. */
export interface KafkaRecordInput {
  readonly topic: string;
  readonly partition: number;
  readonly offset: bigint;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
}

/** What a record asks of the index. */
export type DecodedMessage =
  | { readonly kind: 'upsert'; readonly docs: unknown[]; readonly locations: DocumentLocation[] }
  | { readonly kind: 'delete'; readonly id: string }
  /** A tombstone without a key: nothing to delete. */
  | { readonly kind: 'empty' };

/** "topic movies, partition 2, offset 17": how errors name a record. */
export function describeRecord(topic: string, partition: number, offset: bigint): string {
  return `topic ${topic}, partition ${partition}, offset ${offset}`;
}

/**
 * Decodes a record.
 * @throws YarrowError(ErrorCode.invalidDocument) naming topic, partition, offset (and line within
 *   a JSON Lines value) when the value is not JSON or not UTF-8 text.
 */
export function decodeMessage(record: KafkaRecordInput): DecodedMessage {
  const where = describeRecord(record.topic, record.partition, record.offset);
  if (record.value === null) {
    if (record.key === null || record.key.length === 0) return { kind: 'empty' };
    return { kind: 'delete', id: record.key.toString('utf8') };
  }
  const text = decodeUtf8(record.value, where);
  const single = tryParse(text);
  if (single.ok) {
    if (single.value === undefined) return { kind: 'upsert', docs: [], locations: [] };
    const key = record.key === null || record.key.length === 0 ? null : record.key.toString('utf8');
    const id = key ?? `${record.topic}:${record.partition}:${record.offset}`;
    return { kind: 'upsert', docs: [withId(single.value, id)], locations: [{ source: where }] };
  }
  const docs: unknown[] = [];
  const locations: DocumentLocation[] = [];
  const lines = text.split('\n');
  const numbered = lines.filter((l) => l.trim() !== '').length > 1;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const parsed = tryParse(lines[i]);
    if (!parsed.ok) {
      const at = numbered ? `${where}, line ${i + 1}` : where;
      throw new YarrowError(ErrorCode.invalidDocument, `${at}: invalid JSON: ${parsed.reason}`, {
        source: where,
        ...(numbered ? { line: i + 1 } : {}),
        expected: 'a JSON document, or JSON Lines',
        actual: `invalid JSON: ${parsed.reason}`,
      });
    }
    docs.push(withId(parsed.value, `${record.topic}:${record.partition}:${record.offset}:${i + 1}`));
    locations.push({ source: where, line: i + 1 });
  }
  return { kind: 'upsert', docs, locations };
}

function decodeUtf8(bytes: Buffer, where: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new YarrowError(ErrorCode.invalidDocument, `${where}: the value is not UTF-8 text`, {
      source: where,
      expected: 'a JSON document in UTF-8',
      actual: 'bytes that are not UTF-8',
    });
  }
}

type Parsed = { ok: true; value: unknown } | { ok: false; reason: string };

/** A blank value parses to `undefined` (no documents). */
function tryParse(text: string): Parsed {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
}

/** Only objects without `_id` get one; anything else is left for the engine to reject by name. */
function withId(doc: unknown, id: string): unknown {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc) || Object.hasOwn(doc, '_id')) return doc;
  return { _id: id, ...(doc as Record<string, unknown>) };
}
