import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { indexingOf, parseConfig, resolveIndexName, storeOf } from '../../src/config/index.js';
import { configError } from '../helpers/config-error.js';

const nixie = `core:
  host: 127.0.0.1
  port: 9090
  loglevel: debug
  telemetry: false
  cache: { dir: /tmp/cache }
searcher: {}
schema:
  movies:
    alias: [films, series]
    config:
      indexer:
        ram_buffer_size: 64mb
        flush: { interval: 2s }
        merge_policy:
          tiered: { segments_per_tier: 4, max_merged_segment_size: 1gb, floor_segment_size: 4mb }
    store:
      local:
        disk: { path: file:///data/indexes }
    fields:
      title: { type: text, search: { lexical: { analyze: english } } }
  scratch:
    alias: tmp
    store: { local: { memory: } }
    config: { indexer: { merge_policy: none } }
    fields: { t: { type: text } }
`;

describe('parseConfig (Nixiesearch 0.8 shape)', () => {
  it('reads core, aliases, stores and indexer settings into the config model', () => {
    const { config } = parseConfig(nixie, 'c.yml', {});
    assert.equal(config.shape, 'nixiesearch');
    assert.deepEqual(config.core, { host: '127.0.0.1', port: 9090, loglevel: 'debug', cacheDir: '/tmp/cache' });
    assert.deepEqual(storeOf(config, 'movies'), { local: { path: '/data/indexes' } });
    assert.deepEqual(storeOf(config, 'scratch'), { memory: {} });
    assert.deepEqual(indexingOf(config, 'movies'), {
      buffer_mb: 64,
      max_merged_segment_mb: 1024,
      segments_per_tier: 4,
      floor_segment_mb: 4,
      refresh_interval_ms: 2000,
    });
    assert.equal(indexingOf(config, 'scratch').merges, false);
    assert.equal(indexingOf(config, 'scratch').buffer_mb, 16, 'Yarrow\'s default when the file says nothing');
  });

  it('resolves an index by its name or any alias', () => {
    const { config } = parseConfig(nixie, 'c.yml', {});
    assert.equal(resolveIndexName(config, 'movies'), 'movies');
    assert.equal(resolveIndexName(config, 'series'), 'movies');
    assert.equal(resolveIndexName(config, 'tmp'), 'scratch');
    assert.equal(resolveIndexName(config, 'nope'), undefined);
  });

  it('maps a distributed S3 store onto the S3 store, working in the indexer\'s disk path and polling at the flush interval', () => {
    const text = `schema:
  movies:
    config: { indexer: { flush: { interval: 10s } } }
    store:
      distributed:
        searcher: { memory: }
        indexer: { disk: { path: /var/lib/work } }
        remote: { s3: { bucket: b, prefix: movies, region: us-east-1, endpoint: "http://127.0.0.1:9000" } }
    fields: { title: { type: text } }
`;
    const { config } = parseConfig(text, 'c.yml', {});
    assert.equal(config.schema.movies.distributed, true);
    const s3 = storeOf(config, 'movies').s3;
    assert.deepEqual(
      { bucket: s3?.bucket, prefix: s3?.prefix, region: s3?.region, endpoint: s3?.endpoint, workPath: s3?.workPath, poll: s3?.pollIntervalMs },
      { bucket: 'b', prefix: 'movies', region: 'us-east-1', endpoint: 'http://127.0.0.1:9000', workPath: '/var/lib/work', poll: 10_000 },
    );
  });

  it('maps a distributed store with a shared-disk remote onto a local store', () => {
    const { config } = parseConfig('schema:\n  m:\n    store: { distributed: { remote: { disk: { path: /shared } } } }\n    fields: {}\n', 'c.yml', {});
    assert.deepEqual(storeOf(config, 'm'), { local: { path: '/shared' } });
    assert.equal(config.schema.m.distributed, true);
  });

  it('defaults a store to local disk ./indexes, as Nixiesearch', () => {
    const { config } = parseConfig('core: {}\nschema:\n  m:\n    fields: {}\n', 'c.yml', {});
    assert.deepEqual(storeOf(config, 'm'), { local: { path: './indexes' } });
  });

  it('refuses a file that mixes the two shapes, naming a key of each', () => {
    const e = configError('store:\n  local: { path: /d }\ncore:\n  port: 8080\n');
    assert.equal(e.message, "c.yml:3: core: this file mixes Nixiesearch's config shape (core) with Yarrow's (store at line 1): use one shape per file (docs/config.md)");
    const index = configError('schema:\n  m:\n    config: {}\n    store: { s3: { bucket: b } }\n    fields: {}\n');
    assert.match(index.message, /schema\.m\.config: this file mixes .* \(schema\.m\.store\.s3 at line 4\)/);
  });

  it('keeps unknown keys errors, and names the hnsw settings that 0.8\'s docs put at index level', () => {
    const e = configError('core: { port: 8080, threads: 4 }\nschema:\n  m:\n    config: { hnsw: { m: 16 } }\n    fields: {}\n');
    assert.deepEqual(e.problems.map((p) => p.message), [
      'c.yml:1: core.threads: unknown key; expected one of host, port, loglevel, telemetry, cache',
      'c.yml:4: schema.m.config.hnsw: unknown key; expected one of indexer, directory (HNSW settings are per field: search: { semantic: { m, ef, workers } })',
    ]);
  });

  it('reports every problem of the file at once, in file order, with lines', () => {
    const text = `core:
  port: eighty
schema:
  movies:
    alias: [movies]
    store: { local: { disk: {}, memory: {} } }
    fields:
      title: { type: text, search: { lexical: { language: en } } }
      year: { type: integer }
      plot: { type: text, search: { semantic: { model: e5 } } }
`;
    const e = configError(text);
    assert.deepEqual(e.problems.map((p) => [p.line, p.path]), [
      [2, 'core.port'],
      [6, 'schema.movies.store.local'],
      [8, 'schema.movies.fields.title.search.lexical.language'],
      [9, 'schema.movies.fields.year.type'],
    ]);
    assert.equal(e.message.split('\n').length, 4);
    assert.deepEqual(e.details, { file: 'c.yml', path: 'core.port', line: 2, column: 3 });
  });

  it('checks aliases and semantic model references once the shape is valid', () => {
    const e = configError('schema:\n  a:\n    alias: [b]\n    fields: { t: { type: text, search: { semantic: { model: e5 } } } }\n  b:\n    fields: {}\n');
    assert.deepEqual(e.problems.map((p) => p.message), [
      'c.yml:3: schema.a.alias: "b" is an index name',
      'c.yml:4: schema.a.fields.t.search.semantic.model: model "e5" is not defined in inference.embedding (the config has no inference.embedding section)',
    ]);
  });

  it('refuses the pre-0.6 search: { type: ... } form with its replacement', () => {
    const e = configError('schema:\n  m:\n    fields:\n      t: { type: text, search: { type: lexical } }\n');
    assert.match(e.message, /search\.type: unknown key; .*the old "search: \{ type: \.\.\. \}" form is gone/);
  });
});

describe('parseConfig (core overrides from the environment)', () => {
  it('applies YARROW_CORE_* over NIXIESEARCH_CORE_* over the file, in both shapes', () => {
    const env = { NIXIESEARCH_CORE_PORT: '7000', NIXIESEARCH_CORE_HOST: 'nixie', YARROW_CORE_HOST: 'yarrow', NIXIESEARCH_CORE_LOGLEVEL: 'WARN', YARROW_CORE_CACHE_DIR: '/c' };
    assert.deepEqual(parseConfig(nixie, 'c.yml', env).config.core, { host: 'yarrow', port: 7000, loglevel: 'warn', cacheDir: '/c' });
    assert.deepEqual(parseConfig('schema: {}\n', 'c.yml', { YARROW_CORE_PORT: '9200' }).config.core, { port: 9200 });
  });

  it('names the variable of a bad value', () => {
    assert.equal(
      configError('', { NIXIESEARCH_CORE_PORT: 'x' }).message,
      'c.yml: environment variable NIXIESEARCH_CORE_PORT: expected a port number from 1 to 65535 but got "x"',
    );
  });
});

describe('parseConfig (Yarrow shape additions)', () => {
  it('accepts aliases, per-index indexing overrides and the inference section', () => {
    const text = `indexing: { buffer_mb: 8 }
inference:
  embedding:
    minilm: { model: sentence-transformers/all-MiniLM-L6-v2 }
schema:
  papers:
    alias: articles
    indexing: { max_merged_segment_mb: 256, merges: false }
    fields:
      abstract: { type: text, search: { lexical: { analyze: english }, semantic: { model: minilm } } }
`;
    const { config, mappings } = parseConfig(text, 'c.yml', {});
    assert.deepEqual(config.schema.papers.alias, ['articles']);
    assert.deepEqual(indexingOf(config, 'papers'), { buffer_mb: 8, max_merged_segment_mb: 256, merges: false });
    assert.equal(config.inference?.embedding.minilm.provider, 'onnx');
    assert.equal(mappings.get('papers')?.field('abstract')?.semantic?.model, 'minilm');
  });
});
