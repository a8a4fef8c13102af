import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REDACTED, redactSecrets } from '../../src/api/redact-secrets.js';

describe('redactSecrets', () => {
  it('replaces tokens, keys, passwords and SASL settings, keeping the shape, and leaves the rest', () => {
    const config = {
      api: { auth: { tokens: ['a', 'b'], write_tokens: [], read_tokens: ['r'] }, cors: { origins: ['https://x'] } },
      inference: { embedding: { e5: { provider: 'openai', api_key: 'sk-1', model: 'm', endpoint: 'https://api.example/v1' } } },
      store: { s3: { bucket: 'b', accessKeyId: 'AKIA', secretAccessKey: 'xyz', sessionToken: 't', region: 'eu' } },
      kafka: { 'sasl.password': 'p', 'sasl.username': 'u', 'ssl.key.password': 'k', 'security.protocol': 'SASL_SSL' },
      schema: { movies: { alias: ['films'], fields: { title: { type: 'text' } } } },
    };
    assert.deepEqual(redactSecrets(config), {
      api: { auth: { tokens: [REDACTED, REDACTED], write_tokens: [], read_tokens: [REDACTED] }, cors: { origins: ['https://x'] } },
      inference: { embedding: { e5: { provider: 'openai', api_key: REDACTED, model: 'm', endpoint: 'https://api.example/v1' } } },
      store: { s3: { bucket: 'b', accessKeyId: REDACTED, secretAccessKey: REDACTED, sessionToken: REDACTED, region: 'eu' } },
      kafka: { 'sasl.password': REDACTED, 'sasl.username': REDACTED, 'ssl.key.password': REDACTED, 'security.protocol': 'SASL_SSL' },
      schema: { movies: { alias: ['films'], fields: { title: { type: 'text' } } } },
    });
  });

  it('removes the user and password of URLs anywhere', () => {
    assert.deepEqual(redactSecrets({ endpoint: 'http://minio:minio123@127.0.0.1:9000/x', list: ['s3://k:s@host/b'], plain: 'user@example.com' }), {
      endpoint: `http://${REDACTED}@127.0.0.1:9000/x`,
      list: [`s3://${REDACTED}@host/b`],
      plain: 'user@example.com',
    });
  });
});
