/**
 * The TLS and SASL options of @platformatic/kafka from `--options`' Kafka-style security settings
 * (kafka-options.ts): `security.protocol` picks TLS and/or SASL, `ssl.*.location` PEM files are
 * read here, `sasl.mechanism` defaults to PLAIN as in librdkafka's most common setups.
 */
import { readFile } from 'node:fs/promises';
import type { ConnectionOptions as TlsOptions } from 'node:tls';
import type { KafkaSecurity } from './kafka-options.js';
import { KafkaOptionsError } from './kafka-options.js';

/** The `tls` and `sasl` options of a Kafka client (both absent for PLAINTEXT). */
export interface KafkaConnectionSecurity {
  tls?: TlsOptions;
  sasl?: { mechanism: 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512'; username: string; password: string };
}

/** Builds the client's security options; a PEM file that cannot be read is a KafkaOptionsError naming it. */
export async function kafkaConnectionSecurity(sec: KafkaSecurity): Promise<KafkaConnectionSecurity> {
  const out: KafkaConnectionSecurity = {};
  if (sec.protocol === 'SSL' || sec.protocol === 'SASL_SSL') {
    const tls: TlsOptions = { rejectUnauthorized: sec.sslVerifyCertificate };
    if (sec.sslCaLocation !== undefined) tls.ca = await pem(sec.sslCaLocation, 'ssl.ca.location');
    if (sec.sslCertificateLocation !== undefined) tls.cert = await pem(sec.sslCertificateLocation, 'ssl.certificate.location');
    if (sec.sslKeyLocation !== undefined) tls.key = await pem(sec.sslKeyLocation, 'ssl.key.location');
    if (sec.sslKeyPassword !== undefined) tls.passphrase = sec.sslKeyPassword;
    if (!sec.sslVerifyHostname) tls.checkServerIdentity = () => undefined;
    out.tls = tls;
  }
  if (sec.protocol === 'SASL_SSL' || sec.protocol === 'SASL_PLAINTEXT') {
    out.sasl = { mechanism: sec.saslMechanism ?? 'PLAIN', username: sec.saslUsername ?? '', password: sec.saslPassword ?? '' };
  }
  return out;
}

async function pem(path: string, key: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new KafkaOptionsError(`--options ${key}=${path}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}
