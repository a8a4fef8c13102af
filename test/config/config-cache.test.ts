/**
 * The config cache (src/config/config-cache.ts): a hit gives what a parse gives; a changed text,
 * referenced variable or build never uses an entry made for another; the environment's `core`
 * overrides apply on every load; invalid configs are not cached.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { after, before, describe, it } from 'node:test';
import { defaultConfigCache, loadConfigCached } from '../../src/config/config-cache.js';
import type { ConfigCacheOptions } from '../../src/config/config-cache.js';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import type { Env } from '../../src/config/index.js';

const YARROW = `store:
  local: { path: \${DIR:-./data} }
indexing: { buffer_mb: 8 }
api:
  auth: { tokens: ["\${TOKEN}"] }
schema:
  movies:
    alias: [films, cinema]
    fields:
      _id: { type: id }
      title: { type: text, search: { lexical: { analyze: english } } }
      year: { type: int, sort: true, filter: true }
      "extra_*": { type: text }
  books:
    fields: [{ title: { type: text } }, { pages: { type: long, facet: true } }]
`;

const NIXIESEARCH = `core:
  host: 127.0.0.1
  port: 9100
  cache: { dir: /tmp/cache }
searcher: {}
schema:
  movies:
    alias: [films, series]
    config:
      indexer:
        ram_buffer_size: 64mb
        merge_policy:
          tiered: { segments_per_tier: 4, max_merged_segment_size: 1gb, floor_segment_size: 4mb }
    store:
      local:
        disk: { path: \${DIR:-/data/indexes} }
    fields:
      title: { type: text, search: { lexical: { analyze: english } } }
  scratch:
    store: { local: { memory: } }
    fields: { t: { type: text } }
`;

describe('config cache', () => {
  let dir: string;
  let n = 0;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'yarrow-config-cache-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A config file and a cache directory of their own. */
  async function setUp(text: string): Promise<{ file: string; cache: ConfigCacheOptions }> {
    n++;
    const file = join(dir, `c${String(n)}.yml`);
    await writeFile(file, text);
    return { file, cache: { dir: join(dir, `cache${String(n)}`), build: 'build-1' } };
  }

  /** The one entry in `cache`, with its config's store path changed to `marker`: what a hit returns shows it came from there. */
  async function markEntry(cache: ConfigCacheOptions, marker: string): Promise<void> {
    const files = await readdir(cache.dir);
    assert.equal(files.length, 1, files.join(', '));
    const path = join(cache.dir, files[0]);
    const entry = deserialize(await readFile(path)) as { config: { store: unknown } };
    entry.config.store = { local: { path: marker } };
    await writeFile(path, serialize(entry));
  }

  for (const [shape, text, env] of [['yarrow', YARROW, { TOKEN: 't0k', DIR: '/srv' }], ['nixiesearch', NIXIESEARCH, { DIR: '/srv' }]] as const) {
    it(`a hit is what a parse gives (${shape} shape), mappings included`, async () => {
      const { file, cache } = await setUp(text);
      const fresh = await loadConfig(file, env);
      const miss = await loadConfigCached(file, env, cache);
      assert.equal((await readdir(cache.dir)).length, 1);
      const hit = await loadConfigCached(file, env, cache);
      assert.deepStrictEqual(miss, fresh);
      assert.deepStrictEqual(hit, fresh);
      // Same key order too (a config printed as JSON reads the same).
      assert.equal(JSON.stringify(hit.config), JSON.stringify(fresh.config));
      for (const [name, mapping] of fresh.mappings) assert.deepEqual(hit.mappings.get(name)?.field('title'), mapping.field('title'));
    });
  }

  it('reads the entry on a hit, and not when the text, a referenced variable or the build changed', async () => {
    const { file, cache } = await setUp(YARROW);
    const env: Env = { TOKEN: 'a', DIR: '/srv' };
    await loadConfigCached(file, env, cache);
    await markEntry(cache, '/from-the-cache');
    assert.deepEqual((await loadConfigCached(file, env, cache)).config.store, { local: { path: '/from-the-cache' } });
    // A variable the text references: another value, or unset where it has a default.
    assert.deepEqual((await loadConfigCached(file, { ...env, DIR: '/other' }, cache)).config.store, { local: { path: '/other' } });
    assert.deepEqual((await loadConfigCached(file, { TOKEN: 'a' }, cache)).config.store, { local: { path: './data' } });
    assert.deepEqual((await loadConfigCached(file, { ...env, TOKEN: 'b' }, cache)).config.api?.auth?.tokens, ['b']);
    // A variable it does not reference changes nothing.
    assert.deepEqual((await loadConfigCached(file, { ...env, UNRELATED: 'x' }, cache)).config.store, { local: { path: '/from-the-cache' } });
    // Another build.
    assert.deepEqual((await loadConfigCached(file, env, { ...cache, build: 'build-2' })).config.store, { local: { path: '/srv' } });
    // The text, one character.
    await writeFile(file, YARROW.replace('buffer_mb: 8', 'buffer_mb: 9'));
    const changed = await loadConfigCached(file, env, cache);
    assert.deepEqual([changed.config.store, changed.config.indexing.buffer_mb], [{ local: { path: '/srv' } }, 9]);
  });

  it('a reference that fails to substitute (a comment) keys the entry as failed, and as its value once set', async () => {
    const { file, cache } = await setUp(`# \${UNSET_IN_COMMENT}\nstore:\n  local: { path: /x }\n`);
    await loadConfigCached(file, {}, cache);
    await markEntry(cache, '/from-the-cache');
    assert.deepEqual((await loadConfigCached(file, {}, cache)).config.store, { local: { path: '/from-the-cache' } });
    assert.deepEqual((await loadConfigCached(file, { UNSET_IN_COMMENT: 'now set' }, cache)).config.store, { local: { path: '/x' } });
  });

  it('applies the environment\'s core overrides on every load, and reports a bad one as the parse does', async () => {
    const { file, cache } = await setUp(NIXIESEARCH);
    const env: Env = {};
    assert.equal((await loadConfigCached(file, { ...env, YARROW_CORE_PORT: '9200' }, cache)).config.core.port, 9200);
    await markEntry(cache, '/from-the-cache');
    const hit = await loadConfigCached(file, env, cache);
    assert.deepEqual([hit.config.store, hit.config.core.port], [{ local: { path: '/from-the-cache' } }, 9100]);
    assert.equal((await loadConfigCached(file, { ...env, NIXIESEARCH_CORE_PORT: '9300' }, cache)).config.core.port, 9300);
    await assert.rejects(loadConfigCached(file, { ...env, YARROW_CORE_PORT: 'nope' }, cache), (e) => e instanceof ConfigError && /YARROW_CORE_PORT/.test(e.message));
  });

  it('never caches an invalid config, and ignores a damaged entry', async () => {
    const { file, cache } = await setUp('schema:\n  movies:\n    fields:\n      title: { type: nope }\n');
    for (let i = 0; i < 2; i++) await assert.rejects(loadConfigCached(file, {}, cache), (e) => e instanceof ConfigError && /c\d+\.yml:4/.test(e.message));
    await assert.rejects(readdir(cache.dir), { code: 'ENOENT' });
    await assert.rejects(loadConfigCached(join(dir, 'missing.yml'), {}, cache), (e) => e instanceof ConfigError && /no such file/.test(e.message));
    await writeFile(file, YARROW);
    await loadConfigCached(file, { TOKEN: 'a' }, cache);
    const [entry] = await readdir(cache.dir);
    await writeFile(join(cache.dir, entry), 'not an entry');
    assert.deepEqual((await loadConfigCached(file, { TOKEN: 'a' }, cache)).config.store, { local: { path: './data' } });
    assert.notEqual((await readFile(join(cache.dir, entry), 'latin1')), 'not an entry');
  });

  it('is off outside the bundled CLI (no build identity)', () => {
    assert.equal(defaultConfigCache({}), null);
  });
});
