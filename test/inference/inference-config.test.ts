import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inferenceSchema } from '../../src/inference/index.js';

describe('inferenceSchema', () => {
  it('defaults the provider to onnx and fills Nixiesearch\'s defaults', () => {
    const c = inferenceSchema.parse({ embedding: { e5: { model: 'intfloat/e5-small-v2' } } });
    assert.deepEqual(c.embedding.e5, {
      provider: 'onnx',
      model: 'intfloat/e5-small-v2',
      normalize: true,
      max_tokens: 512,
      batch_size: 32,
      device: 'cpu',
      cache: { memory: { max_size: 32768, max_bytes: 64 * 1024 * 1024 } },
    });
  });

  it('reads an openai model with a duration timeout, retry and cache: false', () => {
    const c = inferenceSchema.parse({ embedding: { remote: { provider: 'openai', model: 'text-embedding-3-small', endpoint: 'http://127.0.0.1:8000/v1', timeout: '2500ms', retry: 3, dimensions: 384, cache: false } } });
    const m = c.embedding.remote;
    assert.equal(m.provider, 'openai');
    assert.equal(m.timeout, 2500);
    assert.equal(m.retry, 3);
    assert.equal(m.api_key_env, 'OPENAI_API_KEY');
    assert.equal(m.cache, false);
    assert.equal(inferenceSchema.parse({ embedding: { r: { provider: 'openai', model: 'm', timeout: '1m' } } }).embedding.r.provider, 'openai');
  });

  it('rejects unknown providers, poolings, keys and model names with their paths', () => {
    const paths = (input: unknown): string[] => inferenceSchema.safeParse(input).error?.issues.map((i) => i.path.join('.')) ?? [];
    assert.deepEqual(paths({ embedding: { a: { model: 'x/y', pooling: 'max' } } }), ['embedding.a.pooling']);
    assert.deepEqual(paths({ embedding: { a: { provider: 'cohere', model: 'x' } } }), ['embedding.a.provider']);
    assert.deepEqual(paths({ embedding: { a: { model: 'x/y', dimensions: 3 } } }), ['embedding.a']);
    assert.deepEqual(paths({ embedding: { 'bad name': { model: 'x/y' } } }), ['embedding.bad name']);
    assert.deepEqual(paths({ embedding: { a: { provider: 'openai', model: 'm', timeout: 'soon' } } }), ['embedding.a.timeout']);
    assert.deepEqual(paths({ ranker: {} }), ['']);
  });
});
