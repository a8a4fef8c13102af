/**
 * Embedding before the write-ahead log (issue 14), with the real all-MiniLM-L6-v2 model: semantic
 * fields' text gets the model's document vector, pre-embedded input keeps its own, a replay never
 * needs the model, and a failing model writes nothing of the batch.
 */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { YarrowError } from '../../../src/engine/errors.js';
import { Index } from '../../../src/engine/search-index.js';
import type { EmbeddingModel } from '../../../src/inference/index.js';
import { openEmbedder } from '../../../src/inference/index.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';
import { minilmConfig } from '../../inference/minilm.js';

const cacheDir = join(tmpdir(), 'yarrow-inference-unused-cache');
const mapping = { fields: { title: { type: 'text', search: { lexical: {}, semantic: { model: 'minilm' } } }, tag: { type: 'text', filter: true, search: false } } };

const docs = [
  { _id: 'cat', title: 'A kitten sleeps on the warm windowsill', tag: 'pets' },
  { _id: 'car', title: 'Changing the oil of a diesel engine', tag: 'cars' },
  { _id: 'bake', title: 'Sourdough bread needs a long slow rise', tag: 'food' },
  { _id: 'stocks', title: 'Equity markets fell sharply after the rate decision', tag: 'money' },
];

describe('embedDocuments (DocumentWriter)', () => {
  let model: EmbeddingModel;
  before(async () => {
    model = await openEmbedder('minilm', minilmConfig(), { cacheDir, threads: 1 });
  });
  after(async () => model.close());

  it('stores the model\'s document vector of each text, so a semantic query finds a paraphrase with no shared word', async () => {
    const dir = new MemoryDirectory();
    const index = await Index.open(dir, { mapping, refreshIntervalMs: 0, embedders: new Map([['minilm', model]]) });
    await index.upsert(docs);
    await index.refresh();
    const res = await index.searchAsync({ query: { semantic: { field: 'title', query: 'young feline napping' } }, size: 4, fields: [] });
    assert.equal(res.hits[0]?._id, 'cat', JSON.stringify(res.hits));
    // The short form answers the same.
    const short = await index.searchAsync({ query: { semantic: { title: 'young feline napping' } }, size: 4, fields: [] });
    assert.deepEqual(short.hits.map((h) => h._id), res.hits.map((h) => h._id));
    // The stored vector is the model's document embedding: a knn with it finds its own doc with cosine 1.
    const [own] = await model.embed([docs[1].title], 'document');
    const knn = index.search({ query: { knn: { field: 'title', query_vector: Array.from(own), k: 1 } }, fields: [] });
    assert.equal(knn.hits[0]._id, 'car');
    assert.ok(knn.hits[0]._score > 0.99, String(knn.hits[0]._score));
    await index.close();
    // Replay and reopen need no model: the log and segments keep the vectors.
    const reopened = await Index.open(dir, { refreshIntervalMs: 0 });
    const again = reopened.search({ query: { knn: { field: 'title', query_vector: Array.from(own), k: 1 } }, fields: [] });
    assert.equal(again.hits[0]._id, 'car');
    await reopened.close();
  });

  it('keeps a pre-embedded vector instead of embedding the text', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, embedders: new Map([['minilm', model]]) });
    const [bread] = await model.embed(['Sourdough bread needs a long slow rise'], 'document');
    // The text says "engine", the vector says "bread": the vector is what the index keeps.
    await index.upsert([{ _id: 'x', title: { text: 'Changing the oil of a diesel engine', embedding: Array.from(bread) } }, docs[3]]);
    await index.refresh();
    const hit = index.search({ query: { knn: { field: 'title', query_vector: Array.from(bread), k: 1 } }, fields: [] }).hits[0];
    assert.equal(hit._id, 'x');
    assert.ok(hit._score > 0.99);
    await index.close();
  });

  it('embeds hybrid (rrf, linear) retrievers and filters them', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, embedders: new Map([['minilm', model]]) });
    await index.upsert(docs);
    await index.refresh();
    const retrieve = [{ match: { title: 'feline' } }, { semantic: { field: 'title', query: 'young feline napping' } }];
    for (const query of [{ rrf: { retrieve, rank_window_size: 10 } }, { linear: { retrieve, rank_window_size: 10 } }]) {
      const res = await index.searchAsync({ query, size: 2, fields: ['tag'] });
      assert.equal(res.hits[0]._id, 'cat', JSON.stringify(query));
      const filtered = await index.searchAsync({ query, size: 4, fields: ['tag'], filters: { include: { term: { tag: 'cars' } } } });
      assert.deepEqual(filtered.hits.map((h) => h._id), ['car']);
    }
    await index.close();
  });

  it('refuses the whole batch with embedding_failed when the model fails, and writes nothing', async () => {
    const broken = await openEmbedder('minilm', minilmConfig({ cache: false }), { cacheDir, threads: 1 });
    await broken.close();
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, embedders: new Map([['minilm', broken]]) });
    await assert.rejects(index.upsert(docs), (e: unknown) => e instanceof YarrowError && e.code === 'embedding_failed' && /model "minilm" failed on field "title"/.test(e.message) && /nothing of the batch was written/.test(e.message));
    const missing = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
    await assert.rejects(missing.upsert(docs), (e: unknown) => e instanceof YarrowError && e.code === 'embedding_failed' && /has not loaded \(inference\.embedding\.minilm\)/.test(e.message));
    for (const i of [index, missing]) {
      await i.refresh();
      assert.equal(i.stats().docs, 0);
      assert.equal(i.stats().walBytes, 0);
      await i.close();
    }
  });

  it('embeds each distinct text once per batch and leaves documents without text alone', async () => {
    let calls = 0;
    let texts = 0;
    const counting = { name: 'minilm', dimensions: model.dimensions, embed: async (t: readonly string[], kind: 'query' | 'document') => { calls++; texts += t.length; return model.embed(t, kind); } };
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, embedders: new Map([['minilm', counting]]) });
    await index.upsert([{ _id: 'a', title: 'same text' }, { _id: 'b', title: 'same text' }, { _id: 'c', tag: 'no title' }]);
    assert.equal(calls, 1);
    assert.equal(texts, 1);
    await index.refresh();
    const [v] = await model.embed(['same text'], 'document');
    const hits = index.search({ query: { knn: { field: 'title', query_vector: Array.from(v), k: 3 } }, fields: [] }).hits;
    assert.deepEqual(hits.map((h) => h._id).sort(), ['a', 'b']);
    await index.close();
  });

  it('indexes a document whose semantic text is blank, without a vector for it (no model call, nothing refused)', async () => {
    let texts = 0;
    const counting = { name: 'minilm', dimensions: model.dimensions, embed: async (t: readonly string[], kind: 'query' | 'document') => { texts += t.length; return model.embed(t, kind); } };
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, embedders: new Map([['minilm', counting]]) });
    await index.upsert([{ _id: 'empty', title: '' }, { _id: 'spaces', title: '  \n ' }, { _id: 'text', title: 'a kitten asleep' }]);
    assert.equal(texts, 1);
    await index.refresh();
    // The blank documents are stored and found lexically (by id), but knn sees only the embedded one.
    assert.equal(index.search({ query: { match_all: {} }, size: 10, fields: [] }).hits.length, 3);
    const [v] = await model.embed(['a kitten asleep'], 'document');
    const hits = index.search({ query: { knn: { field: 'title', query_vector: Array.from(v), k: 3 } }, fields: [] }).hits;
    assert.deepEqual(hits.map((h) => h._id), ['text']);
    await index.close();
  });
});
