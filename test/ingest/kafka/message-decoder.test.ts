import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, YarrowError } from '../../../src/engine/index.js';
import { decodeMessage } from '../../../src/ingest/kafka/index.js';
import type { KafkaRecordInput } from '../../../src/ingest/kafka/index.js';

function record(value: string | null, key: string | null = null, offset = 7n): KafkaRecordInput {
  return { topic: 'docs', partition: 2, offset, key: key === null ? null : Buffer.from(key), value: value === null ? null : Buffer.from(value) };
}

describe('decodeMessage', () => {
  it('a JSON value is one document; its own _id wins over the key', () => {
    assert.deepEqual(decodeMessage(record('{"_id":"a","n":1}', 'k')), { kind: 'upsert', docs: [{ _id: 'a', n: 1 }], locations: [{ source: 'topic docs, partition 2, offset 7' }] });
  });

  it('a document without _id takes the key, or topic:partition:offset without one', () => {
    const keyed = decodeMessage(record('{"n":1}', 'k1'));
    assert.equal(keyed.kind === 'upsert' && (keyed.docs[0] as { _id: string })._id, 'k1');
    const unkeyed = decodeMessage(record('{"n":1}'));
    assert.equal(unkeyed.kind === 'upsert' && (unkeyed.docs[0] as { _id: string })._id, 'docs:2:7');
  });

  it('a JSON Lines value is a batch; blank lines are skipped, ids are numbered by line', () => {
    const decoded = decodeMessage(record('{"_id":"x"}\n\n{"n":2}\n', 'k'));
    assert.deepEqual(decoded, {
      kind: 'upsert',
      docs: [{ _id: 'x' }, { _id: 'docs:2:7:3', n: 2 }],
      locations: [{ source: 'topic docs, partition 2, offset 7', line: 1 }, { source: 'topic docs, partition 2, offset 7', line: 3 }],
    });
  });

  it('a null value with a key is a delete; without a key it is nothing', () => {
    assert.deepEqual(decodeMessage(record(null, 'gone')), { kind: 'delete', id: 'gone' });
    assert.deepEqual(decodeMessage(record(null)), { kind: 'empty' });
  });

  it('invalid JSON names topic, partition, offset (and the line of a batch)', () => {
    assert.throws(() => decodeMessage(record('{"a":')), (e: unknown) => {
      assert.ok(e instanceof YarrowError);
      assert.equal(e.code, ErrorCode.invalidDocument);
      assert.match(e.message, /^topic docs, partition 2, offset 7: invalid JSON: /);
      return true;
    });
    assert.throws(() => decodeMessage(record('{"a":1}\n{oops}')), /^YarrowError: topic docs, partition 2, offset 7, line 2: invalid JSON/);
  });

  it('bytes that are not UTF-8 are an invalid document', () => {
    const bad: KafkaRecordInput = { topic: 't', partition: 0, offset: 1n, key: null, value: Buffer.from([0x7b, 0xff, 0x7d]) };
    assert.throws(() => decodeMessage(bad), /topic t, partition 0, offset 1: the value is not UTF-8 text/);
  });

  it('values that are not objects are passed on for the engine to reject by name', () => {
    assert.deepEqual(decodeMessage(record('[1,2]')), { kind: 'upsert', docs: [[1, 2]], locations: [{ source: 'topic docs, partition 2, offset 7' }] });
  });
});
