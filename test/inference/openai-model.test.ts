import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { InferenceError, openAiEmbeddingSchema, openEmbedder } from '../../src/inference/index.js';
import type { EmbeddingModel } from '../../src/inference/index.js';
import { embeddingsUrl } from '../../src/inference/openai-model.js';
import { closedPortUrl } from './hub-server.js';
import { minilmConfig } from './minilm.js';
import { startOpenAiCompatibleServer } from './openai-compatible-server.js';
import type { OpenAiCompatibleServer } from './openai-compatible-server.js';

const options = { cacheDir: tmpdir() };

function remote(endpoint: string, overrides: Record<string, unknown> = {}): Promise<EmbeddingModel> {
  return openEmbedder('remote', openAiEmbeddingSchema.parse({ provider: 'openai', model: 'all-minilm', endpoint, ...overrides }), options);
}

describe('embeddingsUrl', () => {
  it('appends /v1/embeddings to a base URL and keeps a full one', () => {
    assert.equal(embeddingsUrl('https://api.openai.com/'), 'https://api.openai.com/v1/embeddings');
    assert.equal(embeddingsUrl('http://localhost:11434/v1'), 'http://localhost:11434/v1/embeddings');
    assert.equal(embeddingsUrl('http://h/x/v1/embeddings'), 'http://h/x/v1/embeddings');
  });
});

describe('EmbeddingModel (openai provider, served by the real local model)', () => {
  let local: EmbeddingModel;
  let server: OpenAiCompatibleServer;
  before(async () => {
    local = await openEmbedder('local', minilmConfig({ cache: false }), options);
    server = await startOpenAiCompatibleServer(local);
  });
  after(async () => {
    await server.close();
    await local.close();
  });

  it('round-trips: the endpoint\'s vectors are the local model\'s, in order, batch_size texts per request, with the key from the environment', async () => {
    process.env.YARROW_TEST_EMBED_KEY = 'sk-test-123';
    const m = await remote(server.url, { batch_size: 2, api_key_env: 'YARROW_TEST_EMBED_KEY', cache: false });
    try {
      assert.equal(m.dimensions, 384, 'learned from a probe');
      const texts = ['alpha particle', 'beta decay', 'gamma ray', 'delta wing', 'epsilon'];
      const seen = server.requests.length;
      const got = await m.embed(texts, 'document');
      const want = await local.embed(texts, 'raw');
      for (let i = 0; i < texts.length; i++) for (let d = 0; d < 384; d++) assert.ok(Math.abs(got[i][d] - want[i][d]) < 1e-6);
      const sent = server.requests.slice(seen);
      assert.deepEqual(sent.map((r) => r.body.input), [['alpha particle', 'beta decay'], ['gamma ray', 'delta wing'], ['epsilon']]);
      assert.equal(sent[0].body.model, 'all-minilm');
      assert.equal(sent[0].headers.authorization, 'Bearer sk-test-123');
    } finally {
      delete process.env.YARROW_TEST_EMBED_KEY;
      await m.close();
    }
  });

  it('sends dimensions when configured and fails clearly when the endpoint answers another length', async () => {
    const m = await remote(server.url, { dimensions: 256 });
    await assert.rejects(m.embed(['mismatch'], 'query'), (e: unknown) => {
      assert.ok(e instanceof InferenceError);
      assert.equal(e.code, 'inference_failed');
      assert.match(e.message, /embedding model "remote" \(http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings\): answered a vector of 384 dimensions, expected 256/);
      return true;
    });
    assert.equal(server.requests.at(-1)?.body.dimensions, 256);
  });

  it('retries a failed request and succeeds', async () => {
    const m = await remote(server.url, { dimensions: 384, retry: 2 });
    server.faults.failFirst = 2;
    const seen = server.requests.length;
    const [v] = await m.embed(['retried'], 'query');
    assert.equal(v.length, 384);
    assert.equal(server.requests.length - seen, 3);
  });

  it('gives up after retry + 1 attempts on an endpoint that is down', async () => {
    const down = await closedPortUrl();
    const m = await remote(down, { dimensions: 384, retry: 2 });
    await assert.rejects(m.embed(['anyone there?'], 'query'), (e: unknown) => {
      assert.ok(e instanceof InferenceError);
      assert.match(e.message, /cannot connect: .*ECONNREFUSED.* \(3 attempts, timeout 2000 ms each\)/);
      return true;
    });
    await assert.rejects(remote(down), /embedding model "remote" .*cannot connect/);
  });

  it('times out a request that never gets an answer', async () => {
    const hung = await startOpenAiCompatibleServer(local, { hang: true });
    try {
      const m = await remote(hung.url, { dimensions: 384, timeout: '200ms', retry: 1 });
      await assert.rejects(m.embed(['slow'], 'query'), /no answer within 200 ms \(2 attempts, timeout 200 ms each\)/);
      assert.equal(hung.requests.length, 2);
    } finally {
      await hung.close();
    }
  });
});
