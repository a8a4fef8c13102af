import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_KAFKA_SETTINGS, KafkaOptionsError, kafkaConnectionSecurity, parseKafkaSettings } from '../../../src/ingest/kafka/index.js';

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

describe('parseKafkaSettings: security properties of Kafka clients', () => {
  it('reads security.protocol, sasl.* and ssl.* as librdkafka and Java clients write them', () => {
    const s = parseKafkaSettings({ 'security.protocol': 'sasl_ssl', 'sasl.mechanism': 'SCRAM-SHA-512', 'sasl.username': 'u', 'sasl.password': 'p', 'ssl.ca.location': '/ca.pem', 'ssl.endpoint.identification.algorithm': '' });
    assert.deepEqual([s.security.protocol, s.security.saslMechanism, s.security.saslUsername, s.security.saslPassword, s.security.sslCaLocation, s.security.sslVerifyHostname], ['SASL_SSL', 'SCRAM-SHA-512', 'u', 'p', '/ca.pem', false]);
    const jaas = parseKafkaSettings({ 'security.protocol': 'SASL_PLAINTEXT', 'sasl.jaas.config': 'org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="s3 cret";' });
    assert.deepEqual([jaas.security.saslUsername, jaas.security.saslPassword], ['alice', 's3 cret']);
    assert.equal(DEFAULT_KAFKA_SETTINGS.security.protocol, 'PLAINTEXT', 'the defaults are not changed');
  });

  it('refuses settings that do not go together, Java keystores and unsupported mechanisms, naming the key', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ 'sasl.username': 'u' }, /sasl\.username: needs security\.protocol=SASL_SSL/],
      [{ 'ssl.ca.location': '/ca' }, /ssl\.ca\.location: needs security\.protocol=SSL/],
      [{ 'security.protocol': 'SASL_SSL' }, /needs sasl\.username and sasl\.password/],
      [{ 'security.protocol': 'SSL', 'ssl.truststore.location': '/t.jks' }, /ssl\.truststore\.location: Java keystores/],
      [{ 'security.protocol': 'SASL_SSL', 'sasl.mechanism': 'GSSAPI', 'sasl.username': 'u', 'sasl.password': 'p' }, /sasl\.mechanism=GSSAPI: expected one of PLAIN/],
      [{ 'security.protocol': 'TLS' }, /security\.protocol=TLS: expected one of/],
      [{ 'security.protocol': 'SSL', 'ssl.certificate.location': '/c.pem' }, /go together/],
      [{ 'security.protocol': 'SASL_PLAINTEXT', 'sasl.jaas.config': 'nothing' }, /sasl\.jaas\.config: expected a login module/],
    ];
    for (const [options, message] of cases) assert.throws(() => parseKafkaSettings(options), (e: unknown) => e instanceof KafkaOptionsError && message.test(e.message), JSON.stringify(options));
  });
});

describe('kafkaConnectionSecurity', () => {
  it('builds no TLS or SASL for PLAINTEXT, reads the PEM files for SSL, and passes SASL credentials', async () => {
    assert.deepEqual(await kafkaConnectionSecurity(DEFAULT_KAFKA_SETTINGS.security), {});
    const dir = await mkdtemp(join(tmpdir(), 'yarrow-kafka-tls-'));
    try {
      await writeFile(join(dir, 'ca.pem'), 'CA PEM');
      await writeFile(join(dir, 'cert.pem'), 'CERT PEM');
      await writeFile(join(dir, 'key.pem'), 'KEY PEM');
      const s = parseKafkaSettings({ 'security.protocol': 'SASL_SSL', 'sasl.username': 'u', 'sasl.password': 'p', 'ssl.ca.location': join(dir, 'ca.pem'), 'ssl.certificate.location': join(dir, 'cert.pem'), 'ssl.key.location': join(dir, 'key.pem'), 'ssl.key.password': 'kp', 'enable.ssl.certificate.verification': 'false' });
      const c = await kafkaConnectionSecurity(s.security);
      assert.deepEqual(c.sasl, { mechanism: 'PLAIN', username: 'u', password: 'p' });
      assert.deepEqual([c.tls?.ca, c.tls?.cert, c.tls?.key, c.tls?.passphrase, c.tls?.rejectUnauthorized], ['CA PEM', 'CERT PEM', 'KEY PEM', 'kp', false]);
      const missing = parseKafkaSettings({ 'security.protocol': 'SSL', 'ssl.ca.location': join(dir, 'nope.pem') });
      await assert.rejects(kafkaConnectionSecurity(missing.security), /ssl\.ca\.location=.*nope\.pem: cannot read the file \(ENOENT\)/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
