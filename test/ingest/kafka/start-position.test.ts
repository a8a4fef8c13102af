import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkpointKey, checkpointValue, readCheckpoint, requestedPosition, resumePosition } from '../../../src/ingest/kafka/index.js';

describe('start positions', () => {
  it('resume takes the later of the index checkpoint and the group offset', () => {
    assert.equal(resumePosition(10n, 4n), 10n, 'crash after the index commit, before the group commit');
    assert.equal(resumePosition(4n, 10n), 10n, 'another member indexed the partition since');
    assert.equal(resumePosition(undefined, 3n), 3n);
    assert.equal(resumePosition(3n, undefined), 3n);
    assert.equal(resumePosition(undefined, undefined), undefined);
  });

  it('-o positions stay within the partition', () => {
    const bounds = { earliest: 5n, latest: 50n, atTimestamp: 20n };
    assert.equal(requestedPosition({ kind: 'earliest' }, bounds), 5n);
    assert.equal(requestedPosition({ kind: 'latest' }, bounds), 50n);
    assert.equal(requestedPosition({ kind: 'timestamp', epochMs: 1000 }, bounds), 20n);
    assert.equal(requestedPosition({ kind: 'timestamp', epochMs: 1000 }, { earliest: 5n, latest: 50n }), 50n, 'no message after the time: the end');
    assert.equal(requestedPosition({ kind: 'last', count: 10 }, bounds), 40n);
    assert.equal(requestedPosition({ kind: 'last', count: 100 }, bounds), 5n);
  });

  it('the checkpoint round-trips through index.json and ignores what it does not understand', () => {
    const positions = new Map([[2, 7n], [0, 3n]]);
    const value = checkpointValue(positions);
    assert.deepEqual(value, { 0: 3, 2: 7 });
    const checkpoints = { [checkpointKey('t')]: JSON.parse(JSON.stringify(value)) as unknown, other: 1 };
    assert.deepEqual(readCheckpoint(checkpoints, 't'), new Map([[0, 3n], [2, 7n]]));
    assert.deepEqual(readCheckpoint({ 'kafka:t': { 0: 'x', a: 1, 1: -1, 2: 4 } }, 't'), new Map([[2, 4n]]));
    assert.deepEqual(readCheckpoint({}, 't'), new Map());
  });
});
