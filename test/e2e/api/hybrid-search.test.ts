/**
 * Semantic and hybrid search end to end (issue 14): a Nixiesearch-shaped config whose
 * `inference.embedding` model is the local all-MiniLM-L6-v2 directory; `yarrow index file` embeds
 * a JSONL file, then a real `yarrow standalone` server embeds pushed documents and query texts.
 * A paraphrase sharing no word with its document ranks that document first.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { minilmDir } from '../../inference/minilm.js';
import { Workspace } from '../cli/cli-harness.js';
import { ServerProcess } from './server-harness.js';

const config = (model: string): string => `inference:
  embedding:
    minilm:
      model: ${JSON.stringify(model)}
schema:
  articles:
    fields:
      title:
        type: text
        search:
          lexical: { analyze: english }
          semantic: { model: minilm }
      section: { type: text, filter: true, facet: true, search: false }
`;

const fileDocs = [
  { _id: 'kitten', title: 'A kitten sleeps on the warm windowsill', section: 'pets' },
  { _id: 'engine', title: 'Changing the oil of a diesel engine', section: 'cars' },
  { _id: 'bread', title: 'Sourdough bread needs a long slow rise', section: 'food' },
];
const pushedDocs = [
  { _id: 'markets', title: 'Equity markets fell sharply after the rate decision', section: 'money' },
  { _id: 'garden', title: 'Planting tomatoes in raised beds', section: 'home' },
];

/** Paraphrases that share no word with the document they describe. */
const paraphrases: [string, string][] = [
  ['young feline napping', 'kitten'],
  ['motor vehicle maintenance', 'engine'],
  ['stock prices dropped', 'markets'],
];

type Hits = { _id: string; _score: number; section?: string }[];

describe('semantic and hybrid search over HTTP (standalone with a local model)', () => {
  let ws: Workspace;
  let server: ServerProcess;
  before(async () => {
    ws = await Workspace.create(config(minilmDir()));
    await ws.write('articles.jsonl', fileDocs.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const indexed = await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'articles', '-u', 'articles.jsonl']);
    assert.equal(indexed.code, 0, indexed.stderr);
    server = await ServerProcess.start(ws, 'standalone', { YARROW_REFRESH_INTERVAL_MS: '50' }, [], 60_000);
    const pushed = await server.index('articles', pushedDocs.map((d) => JSON.stringify(d)).join('\n'));
    assert.equal(pushed.status, 200, JSON.stringify(pushed.json));
    assert.equal((await server.fetch('/articles/_flush', { method: 'POST' })).status, 200);
  });
  after(async () => {
    assert.equal(await server.stop('SIGTERM'), 0);
    await ws.cleanup();
  });

  const search = async (request: unknown): Promise<Hits> => {
    const res = await server.search('articles', request);
    assert.equal(res.status, 200, JSON.stringify(res.json));
    return res.json.hits as Hits;
  };

  it('ranks the paraphrased document first with semantic, in the long and the short form', async () => {
    for (const [query, expected] of paraphrases) {
      const long = await search({ query: { semantic: { field: 'title', query, k: 5 } }, size: 5, fields: [] });
      assert.equal(long[0]?._id, expected, `${query}: ${JSON.stringify(long)}`);
      const short = await search({ query: { semantic: { title: query } }, size: 5, fields: [] });
      assert.equal(short[0]?._id, expected, `${query}: ${JSON.stringify(short)}`);
    }
    // Lexical search alone finds none of them: no word is shared.
    for (const [query] of paraphrases) assert.deepEqual(await search({ query: { match: { title: query } } }), []);
  });

  it('ranks it first with rrf and linear fusion of lexical and semantic retrievers, filters and aggs included', async () => {
    for (const [query, expected] of paraphrases) {
      const retrieve = [{ match: { title: query } }, { semantic: { field: 'title', query } }];
      for (const fused of [{ rrf: { retrieve, rank_window_size: 20 } }, { linear: { retrieve: [{ query: retrieve[0], weight: 0.3 }, { query: retrieve[1], weight: 0.7 }], rank_window_size: 20 } }]) {
        const hits = await search({ query: fused, size: 3, fields: ['section'] });
        assert.equal(hits[0]?._id, expected, `${query} ${JSON.stringify(fused)}: ${JSON.stringify(hits)}`);
      }
    }
    const res = await server.search('articles', {
      query: { rrf: { retrieve: [{ match: { title: 'oil' } }, { semantic: { title: 'car repair' } }], rank_window_size: 10 } },
      filters: { include: { term: { section: 'cars' } } },
      aggs: { sections: { term: { field: 'section' } } },
      fields: ['section'],
    });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.deepEqual(res.json.hits.map((h) => h._id), ['engine']);
    assert.deepEqual((res.json.aggs as { sections: { buckets: unknown[] } }).sections.buckets, [{ term: 'cars', count: 1 }]);
  });

  it('answers POST /inference/embedding/minilm with the vectors the index uses', async () => {
    const res = await server.fetch('/inference/embedding/minilm', { method: 'POST', body: JSON.stringify({ input: [{ text: 'A kitten sleeps on the warm windowsill', type: 'document' }] }), headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { output: { embedding: number[] }[] };
    assert.equal(body.output[0].embedding.length, 384);
    const hits = await search({ query: { knn: { field: 'title', query_vector: body.output[0].embedding, k: 1 } }, fields: [] });
    assert.equal(hits[0]._id, 'kitten');
    assert.ok(hits[0]._score > 0.99, String(hits[0]._score));
  });

  it('refuses a semantic query on a field without a model, and a wrong pre-embedded dimension, naming the field', async () => {
    const bad = await server.search('articles', { query: { semantic: { section: 'pets' } } });
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.json), /field \\"section\\" has no semantic search/);
    const wrong = await server.index('articles', JSON.stringify({ _id: 'w', title: { text: 'x', embedding: [0.1, 0.2] } }));
    assert.equal(wrong.status, 400, JSON.stringify(wrong.json));
    assert.match(JSON.stringify(wrong.json), /title/);
  });
});
