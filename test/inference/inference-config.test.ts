import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_CACHE_BYTES, DEFAULT_CACHE_ENTRIES, inferenceSchema } from '../../src/inference/index.js';

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
    assert.deepEqual(paths({ embedding: { a: { provider: 'bedrock', model: 'x' } } }), ['embedding.a.provider']);
    assert.deepEqual(paths({ embedding: { a: { model: 'x/y', dimensions: 3 } } }), ['embedding.a']);
    assert.deepEqual(paths({ embedding: { 'bad name': { model: 'x/y' } } }), ['embedding.bad name']);
    assert.deepEqual(paths({ embedding: { a: { provider: 'openai', model: 'm', timeout: 'soon' } } }), ['embedding.a.timeout']);
    assert.deepEqual(paths({ ranker: { r: { model: 'x/y', temperature: 1 } } }), ['ranker.r']);
    assert.deepEqual(paths({ rerankers: {} }), ['']);
  });

  it('accepts every key Nixiesearch 0.8 documents: cohere, devices, last pooling, null dimensions, rankers, completions', () => {
    const config = inferenceSchema.parse({
      embedding: {
        '<model-name>': { model: 'x/y', device: 'cpu:8', pooling: 'last', padding_side: 'left', cache: { memory: null } },
        gpu: { model: 'x/y', device: 'cuda:0' },
        c: { provider: 'cohere', model: 'embed-english-v3.0' },
        o: { provider: 'openai', model: 'text-embedding-3-small', dimensions: null },
      },
      ranker: { ce: { model: 'cross-encoder/ms-marco-MiniLM-L6-v2', device: 'cpu', logits_processor: 'sigmoid' } },
      completion: { qwen: { provider: 'llamacpp', model: 'Qwen/Qwen2.5-0.5B-Instruct-GGUF', options: { threads: 2 } } },
    });
    const m = config.embedding['<model-name>'];
    assert.ok(m.provider === 'onnx' && m.device === 'cpu:8' && m.pooling === 'last');
    assert.deepEqual(m.cache, { memory: { max_size: DEFAULT_CACHE_ENTRIES, max_bytes: DEFAULT_CACHE_BYTES } });
    assert.equal(config.embedding.c.provider, 'cohere');
    const o = config.embedding.o;
    assert.ok(o.provider === 'openai' && o.dimensions === undefined);
    assert.equal(config.ranker.ce.provider, 'onnx');
    assert.equal(config.completion.qwen.options?.threads, 2);
  });
});
