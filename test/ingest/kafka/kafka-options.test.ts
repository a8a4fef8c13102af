import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_KAFKA_SETTINGS, KafkaOptionsError, parseKafkaSettings } from '../../../src/ingest/kafka/index.js';

describe('parseKafkaSettings', () => {
  it('no options: the documented defaults', () => {
    const s = parseKafkaSettings({});
    assert.deepEqual(s, DEFAULT_KAFKA_SETTINGS);
    assert.equal(s.commitMessages, 50_000);
    assert.equal(s.commitIntervalMs, 5_000);
    assert.equal(s.metricsPort, undefined);
  });

  it('maps Kafka-style client keys and yarrow.* keys', () => {
    const s = parseKafkaSettings({
      'client.id': 'me',
      'session.timeout.ms': '6000',
      'heartbeat.interval.ms': '500',
      'fetch.max.bytes': '1000',
      'yarrow.commit.messages': '10',
      'yarrow.commit.interval.ms': '250',
      'yarrow.metrics.port': '0',
    });
    assert.equal(s.clientId, 'me');
    assert.equal(s.sessionTimeoutMs, 6000);
    assert.equal(s.heartbeatIntervalMs, 500);
    assert.equal(s.fetchMaxBytes, 1000);
    assert.equal(s.commitMessages, 10);
    assert.equal(s.commitIntervalMs, 250);
    assert.equal(s.metricsPort, 0);
    // The rebalance timeout is never shorter than the session.
    assert.equal(parseKafkaSettings({ 'session.timeout.ms': '90000', 'rebalance.timeout.ms': '1000' }).rebalanceTimeoutMs, 90000);
  });

  it('unknown keys, bad numbers and contradicting timeouts are errors naming the key', () => {
    assert.throws(() => parseKafkaSettings({ 'fetch.wait': '1' }), (e: unknown) => e instanceof KafkaOptionsError && /unknown key "fetch\.wait"; known keys: client\.id/.test(e.message));
    assert.throws(() => parseKafkaSettings({ 'yarrow.commit.messages': '0' }), /yarrow\.commit\.messages=0: expected an integer >= 1/);
    assert.throws(() => parseKafkaSettings({ 'fetch.max.wait.ms': 'soon' }), /fetch\.max\.wait\.ms=soon/);
    assert.throws(() => parseKafkaSettings({ 'yarrow.metrics.port': '70000' }), /expected a port/);
    assert.throws(() => parseKafkaSettings({ 'session.timeout.ms': '1000', 'heartbeat.interval.ms': '2000' }), /must not exceed session\.timeout\.ms/);
  });
});
