import assert from 'node:assert/strict';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { InferenceError, openEmbedder } from '../../src/inference/index.js';
import type { EmbeddingModel } from '../../src/inference/index.js';
import { dot, minilmConfig, minilmDir, norm } from './minilm.js';

const cacheDir = join(tmpdir(), 'yarrow-inference-unused-cache');

async function open(overrides: Record<string, unknown> = {}): Promise<EmbeddingModel> {
  return openEmbedder('minilm', minilmConfig(overrides), { cacheDir });
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
}

const documents = [
  'The feline rested on the rug.',
  'Stock markets fell sharply after the interest rate announcement.',
  'The recipe needs flour, eggs and butter.',
  'Heavy rain flooded the streets of the city.',
  "He repaired the bicycle's flat tyre.",
];

describe('EmbeddingModel (onnx, all-MiniLM-L6-v2)', () => {
  let model: EmbeddingModel;
  before(async () => {
    model = await open();
  });
  after(async () => {
    await model.close();
  });

  it('ranks first the document a query paraphrases with no word in common', async () => {
    const queries: [string, number][] = [
      ['kitten napping atop carpet', 0],
      ['shares plunged following borrowing cost decision', 1],
      ['downpour submerged town roads', 3],
    ];
    const docVectors = await model.embed(documents, 'document');
    for (const [query, expected] of queries) {
      for (const w of words(query)) assert.ok(!words(documents[expected]).has(w), `"${w}" is in both "${query}" and its document`);
      const [q] = await model.embed([query], 'query');
      const scores = docVectors.map((d) => dot(q, d));
      const best = scores.indexOf(Math.max(...scores));
      assert.equal(best, expected, `"${query}" ranked "${documents[best]}" first (scores ${scores.map((s) => s.toFixed(3)).join(', ')})`);
    }
  });

  it('returns unit vectors of the model\'s 384 dimensions, one per text in order, [] for no text', async () => {
    assert.equal(model.dimensions, 384);
    const vs = await model.embed(['one', 'two', 'three'], 'document');
    assert.equal(vs.length, 3);
    for (const v of vs) {
      assert.equal(v.length, 384);
      assert.ok(Math.abs(norm(v) - 1) < 1e-5);
    }
    assert.notDeepEqual(vs[0], vs[1]);
    assert.deepEqual(await model.embed([], 'query'), []);
  });

  it('gives a text the same vector alone and batched with longer texts (padding is masked)', async () => {
    const alone = await open({ cache: false });
    try {
      const [single] = await alone.embed(['short text'], 'document');
      const batch = await alone.embed(['a much longer text that needs many more tokens than the short one does, padding it', 'short text'], 'document');
      for (let i = 0; i < 384; i++) assert.ok(Math.abs(single[i] - batch[1][i]) < 1e-4, `dimension ${i}: ${single[i]} vs ${batch[1][i]}`);
    } finally {
      await alone.close();
    }
  });

  it('answers repeated texts from the cache, shared by queries and documents', async () => {
    const before = model.cache!.stats();
    const [a] = await model.embed(['a cache test sentence'], 'document');
    const [b, c] = await model.embed(['a cache test sentence', 'a cache test sentence'], 'query');
    const after = model.cache!.stats();
    assert.equal(after.misses - before.misses, 1);
    assert.equal(after.hits - before.hits, 2);
    assert.equal(after.entries - before.entries, 1);
    assert.strictEqual(b, a);
    assert.strictEqual(c, a);
  });

  it('embeds nothing twice within one call and keeps no cache when cache: false', async () => {
    const uncached = await open({ cache: false });
    try {
      assert.equal(uncached.cache, null);
      const [x, y] = await uncached.embed(['same', 'same'], 'document');
      assert.strictEqual(x, y);
    } finally {
      await uncached.close();
    }
  });

  it('prepends the prompt of the kind: a query is the raw embedding of its prefixed text', async () => {
    const prompted = await open({ prompt: { query: 'query: ', doc: 'passage: ' } });
    try {
      const [q] = await prompted.embed(['solar panels'], 'query');
      const [d] = await prompted.embed(['solar panels'], 'document');
      const [raw] = await prompted.embed(['query: solar panels'], 'raw');
      assert.notDeepEqual(q, d);
      assert.deepEqual(raw, q);
      assert.deepEqual(prompted.prompt, { query: 'query: ', doc: 'passage: ' });
    } finally {
      await prompted.close();
    }
  });

  it('reads mean pooling from the model\'s 1_Pooling/config.json; cls pooling and normalize: false change the vectors', async () => {
    const [byDefault] = await model.embed(['pooling probe'], 'raw');
    const mean = await open({ pooling: 'mean', cache: false });
    const cls = await open({ pooling: 'cls', cache: false });
    const raw = await open({ normalize: false, cache: false });
    try {
      const [m] = await mean.embed(['pooling probe'], 'raw');
      const [c] = await cls.embed(['pooling probe'], 'raw');
      const [r] = await raw.embed(['pooling probe'], 'raw');
      for (let i = 0; i < 384; i++) assert.ok(Math.abs(m[i] - byDefault[i]) < 1e-6);
      assert.ok(dot(m, c) < 0.99, `cls and mean pooling gave the same direction (${dot(m, c)})`);
      assert.ok(Math.abs(norm(c) - 1) < 1e-5);
      assert.ok(Math.abs(norm(r) - 1) > 0.01, `norm without normalize is ${norm(r)}`);
      const scaled = r.map((x) => x / norm(r));
      for (let i = 0; i < 384; i++) assert.ok(Math.abs(scaled[i] - m[i]) < 1e-5);
    } finally {
      await Promise.all([mean.close(), cls.close(), raw.close()]);
    }
  });

  it('truncates inputs to max_tokens, keeping the closing special token', async () => {
    const short = await open({ max_tokens: 8, cache: false });
    try {
      const head = 'one two three four five six';
      const [a, b] = await short.embed([head, `${head} seven eight nine ten`], 'raw');
      assert.deepEqual(a, b);
      const [full] = await model.embed([`${head} seven eight nine ten`], 'raw');
      assert.notDeepEqual(full, b);
    } finally {
      await short.close();
    }
  });

  it('keeps the event loop turning while it embeds a large batch (inference runs in a worker thread)', async () => {
    const passage = 'Search engines rank documents by how well their words and meaning match a query. '.repeat(4);
    const texts = Array.from({ length: 24 }, (_, i) => `${i} ${passage}`);
    let ticks = 0;
    let done = false;
    const tick = (): void => {
      ticks++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const started = performance.now();
    const vectors = await model.embed(texts, 'document');
    done = true;
    const ms = performance.now() - started;
    assert.equal(vectors.length, 24);
    // A blocked loop would tick a handful of times; a free one ticks thousands of times a second.
    assert.ok(ticks > ms / 10, `the loop turned ${ticks} times in ${ms.toFixed(0)} ms`);
  });
});

describe('openEmbedder errors', () => {
  it('names the directory and the missing tokenizer.json', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'yarrow-model-'));
    try {
      await symlink(join(minilmDir(), 'model.onnx'), join(dir, 'model.onnx'));
      await assert.rejects(openEmbedder('broken', minilmConfig({ model: dir }), { cacheDir }), (e: unknown) => {
        assert.ok(e instanceof InferenceError);
        assert.equal(e.code, 'model_unavailable');
        assert.match(e.message, new RegExp(`embedding model "broken": the model directory ${dir} has no tokenizer.json`));
        return true;
      });
      await assert.rejects(openEmbedder('broken', minilmConfig({ model: join(dir, 'nope') }), { cacheDir }), /cannot read the model directory .*nope: .*no such file or directory/i);
      await assert.rejects(openEmbedder('broken', minilmConfig({ file: 'onnx/model_qint8.onnx' }), { cacheDir }), /has no onnx\/model_qint8\.onnx \(ONNX files there: model\.onnx\)/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rejects a model string that is neither a handle, a URL nor a path', async () => {
    await assert.rejects(openEmbedder('bad', minilmConfig({ model: 'just-a-name' }), { cacheDir }), /cannot read model "just-a-name": expected a hub handle \(org\/name\), an http\(s\):\/\/ URL, or a local directory/);
  });

  it('says how to install the ONNX runtime when it is missing', async () => {
    await assert.rejects(openEmbedder('minilm', minilmConfig(), { cacheDir, runtimeModule: 'onnxruntime-node-not-installed' }), (e: unknown) => {
      assert.ok(e instanceof InferenceError);
      assert.equal(e.code, 'model_unavailable');
      assert.match(e.message, /the ONNX runtime is not installed .*ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node/);
      return true;
    });
  });
});
