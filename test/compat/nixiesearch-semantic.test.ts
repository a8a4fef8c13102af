/**
 * Nixiesearch 0.8's documented semantic configs serve (issue 14): every semantic config block of
 * its docs that loads (test/compat/fixtures) is opened with its embedding models pointed at the
 * local all-MiniLM-L6-v2 directory (the docs name hub models such as intfloat/e5-small-v2, which
 * this machine cannot download), a document is indexed, and the request shapes its search docs
 * show answer with that document: `semantic` (long and short form), `knn` with a vector from the
 * same model, and `rrf` of a lexical and a semantic retriever.
 */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseConfig } from '../../src/config/index.js';
import { analyzerNames, Index } from '../../src/engine/index.js';
import type { Mapping } from '../../src/engine/index.js';
import { openEmbedder } from '../../src/inference/index.js';
import type { EmbeddingModel } from '../../src/inference/index.js';
import { MemoryDirectory } from '../../src/storage/memory-directory.js';
import { minilmConfig } from '../inference/minilm.js';
import { docConfigCases } from './fixtures/nixiesearch-0.8-configs.js';

const TEXT = 'A kitten sleeps on the warm windowsill';
const OTHER = 'Changing the oil of a diesel engine';
const PARAPHRASE = 'young feline napping';

/** A value of `type` for a required field the test does not care about. */
function filler(type: string): unknown {
  const base = type.replace(/\[\]$/, '');
  const one = base === 'int' || base === 'long' || base === 'float' || base === 'double' ? 1 : base === 'bool' ? true : base === 'date' ? '2024-01-01' : base === 'datetime' ? '2024-01-01T00:00:00Z' : base === 'geopoint' ? { lat: 1, lon: 2 } : 'x';
  return type.endsWith('[]') ? [one] : one;
}

/**
 * Two documents: every semantic field holds TEXT in the first, OTHER in the second (pre-embedded
 * `{text, embedding}` by the model for a `dim` field, as Nixiesearch's docs show).
 */
async function documents(mapping: Mapping, model: EmbeddingModel): Promise<Record<string, unknown>[]> {
  const vectors = await model.embed([TEXT, OTHER], 'document');
  return [TEXT, OTHER].map((text, i) => {
    const doc: Record<string, unknown> = { _id: `doc${i}` };
    for (const f of mapping.fields) {
      if (f.name === '_id' || f.name.includes('*') || f.name.includes('.')) continue;
      const value = f.semantic?.dim == null ? text : { text, embedding: Array.from(vectors[i]) };
      if (f.semantic !== null) doc[f.name] = f.multi ? [value] : value;
      else if (f.required) doc[f.name] = filler(`${f.baseType}${f.multi ? '[]' : ''}`);
    }
    return doc;
  });
}

const semanticCases = docConfigCases.filter((c) => c.features === 'semantic' && 'loads' in c.expect && (c.analyzers ?? []).every((a) => analyzerNames.includes(a)));

describe('Nixiesearch 0.8 documented semantic configs answer semantic, knn and rrf requests', () => {
  let model: EmbeddingModel;
  before(async () => {
    model = await openEmbedder('minilm', minilmConfig(), { cacheDir: join(tmpdir(), 'yarrow-inference-unused-cache'), threads: 1 });
  });
  after(async () => model.close());

  it('covers every loadable semantic block', () => {
    assert.ok(semanticCases.length >= 15, `only ${semanticCases.length} semantic cases`);
  });

  for (const c of semanticCases) {
    it(`${c.source}${c.derived === undefined ? '' : ` (derived)`}`, async () => {
      const { config, mappings } = parseConfig(c.yaml, 'doc.yml', {});
      // Every model of the block is the local model here.
      const embedders = new Map(Object.keys(config.inference?.embedding ?? {}).map((name) => [name, model]));
      let fields = 0;
      for (const [name, mapping] of mappings) {
        const index = await Index.open(new MemoryDirectory(), { name, mapping, refreshIntervalMs: 0, embedders });
        try {
          await index.upsert(await documents(mapping, model));
          await index.refresh();
          for (const f of mapping.fields.filter((m) => m.semantic !== null && !m.name.includes('*'))) {
            fields++;
            const [vector] = await model.embed([PARAPHRASE], 'query');
            const knn = await index.searchAsync({ query: { knn: { field: f.name, query_vector: Array.from(vector), k: 2, num_candidates: 10 } } });
            assert.equal(knn.hits[0]?._id, 'doc0');
            if (f.semantic?.model == null) {
              // Pre-embedded vectors: no model to embed a query text, so semantic says to use knn.
              await assert.rejects(index.searchAsync({ query: { semantic: { field: f.name, query: PARAPHRASE } } }), /use knn with query_vector/);
              continue;
            }
            const long = await index.searchAsync({ query: { semantic: { field: f.name, query: PARAPHRASE, k: 2 } }, fields: ['_id'] });
            assert.equal(long.hits[0]?._id, 'doc0', `${name}.${f.name}: ${JSON.stringify(long.hits)}`);
            const short = await index.searchAsync({ query: { semantic: { [f.name]: PARAPHRASE } } });
            assert.equal(short.hits[0]?._id, 'doc0');
            const lexical = f.analyzer === null ? { match_all: {} } : { match: { [f.name]: 'kitten' } };
            const rrf = await index.searchAsync({ query: { rrf: { retrieve: [lexical, { semantic: { field: f.name, query: PARAPHRASE } }], k: 60, rank_window_size: 10 } } });
            assert.equal(rrf.hits[0]?._id, 'doc0');
          }
        } finally {
          await index.close();
        }
      }
      assert.ok(fields > 0, 'no semantic field');
    });
  }
});
