import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_STORE_PATH, parseConfig } from '../../src/config/index.js';
import { configError } from '../helpers/config-error.js';
import { analyzerNames } from '../../src/engine/analysis/analyzers.js';

describe('parseConfig', () => {
  it('fills in the documented defaults', () => {
    const { config, mappings } = parseConfig('schema:\n  movies:\n    fields:\n      title: { type: text }\n', 'c.yml', {});
    assert.deepEqual(config.store, { local: { path: DEFAULT_STORE_PATH } });
    assert.equal(config.shape, 'yarrow');
    assert.deepEqual(config.schema.movies.alias, []);
    assert.deepEqual(config.core, {});
    const title = mappings.get('movies')?.field('title');
    assert.deepEqual([title?.type, title?.store, title?.filter, title?.facet, title?.sort, title?.required], ['text', true, false, false, false, false]);
    assert.deepEqual(mappings.get('movies')?.field('title')?.analyzer, 'standard');
    assert.ok(mappings.get('movies')?.field('_id'));
  });

  it('defaults the indexing section and rejects a non-positive size naming its path and line', () => {
    assert.deepEqual(parseConfig('', 'c.yml', {}).config.indexing, { buffer_mb: 16, max_merged_segment_mb: 32 });
    assert.deepEqual(parseConfig('indexing: { buffer_mb: 8 }\n', 'c.yml', {}).config.indexing, { buffer_mb: 8, max_merged_segment_mb: 32 });
    const error = configError('schema: {}\nindexing:\n  max_merged_segment_mb: 0\n');
    assert.match(error.message, /indexing\.max_merged_segment_mb/);
    assert.match(error.message, /c\.yml:3:/);
  });

  it('accepts an empty file', () => {
    assert.deepEqual(parseConfig('', 'c.yml', {}).config.schema, {});
  });

  it('substitutes variables inside flow mappings and quoted strings', () => {
    const text = 'store:\n  local: { path: ${DIR} }\napi:\n  auth:\n    tokens: ["${TOKEN}", "x-${TOKEN:-none}-y"]\n';
    const { config } = parseConfig(text, 'c.yml', { DIR: '/data', TOKEN: 'secret' });
    assert.equal(config.store.local?.path, '/data');
    assert.deepEqual(config.api?.auth?.tokens, ['secret', 'x-secret-y']);
  });

  it('uses the default when the variable is unset or empty', () => {
    const text = 'store:\n  local:\n    path: ${DIR:-./fallback}\n';
    assert.equal(parseConfig(text, 'c.yml', {}).config.store.local?.path, './fallback');
    assert.equal(parseConfig(text, 'c.yml', { DIR: '' }).config.store.local?.path, './fallback');
  });

  it('reads an unquoted substituted value as YAML would, a quoted one as a string', () => {
    const text = 'schema:\n  m:\n    fields:\n      f: { type: int, filter: ${FILTER} }\n';
    assert.equal(parseConfig(text, 'c.yml', { FILTER: 'true' }).mappings.get('m')?.field('f')?.filter, true);
    const quoted = configError('schema:\n  m:\n    fields:\n      f: { type: int, filter: "${FILTER}" }\n', { FILTER: 'true' });
    assert.equal(quoted.message, 'c.yml:4: schema.m.fields.f.filter: expected true or false but got "true"');
  });

  it('never lets a value inject YAML structure', () => {
    const { config } = parseConfig('store:\n  local:\n    path: ${P}\n', 'c.yml', { P: '{ evil: 1 }' });
    assert.equal(config.store.local?.path, '{ evil: 1 }');
  });

  it('keeps text that looks like its own placeholders as it is', () => {
    // The placeholders a reference is swapped for while YAML parses are __yarrow_env_<tag>_<n>__.
    const text = 'store:\n  local: { path: "__yarrow_env_0_0__/${DIR}/__yarrow_env_1_0__" }\n';
    assert.equal(parseConfig(text, 'c.yml', { DIR: 'd' }).config.store.local?.path, '__yarrow_env_0_0__/d/__yarrow_env_1_0__');
  });

  it('ignores references in comments and keeps $${ as a literal ${', () => {
    const text = '# uses ${NOT_SET} somewhere\nstore:\n  local: { path: "$${HOME}" }\n';
    assert.equal(parseConfig(text, 'c.yml', {}).config.store.local?.path, '${HOME}');
  });

  it('names line and variable when a variable is not set', () => {
    const e = configError('store:\n  local:\n    path: ${NOPE}\n');
    assert.equal(e.message, 'c.yml:3: environment variable NOPE is not set (write ${NOPE:-default} to give a default)');
    assert.equal(e.details.line, 3);
  });

  it('names path and line of a wrong type, an unknown key and a bad enum value', () => {
    assert.equal(
      configError('schema:\n  m:\n    fields:\n      year:\n        type: int\n        facet: yes please\n').message,
      'c.yml:6: schema.m.fields.year.facet: expected true or false but got "yes please"',
    );
    assert.equal(configError('store:\n  local: {}\nsearch: true\n').message, 'c.yml:3: search: unknown key; expected one of store, api, indexing, inference, schema');
    const e = configError('schema:\n  m:\n    fields:\n      t:\n        type: text\n        search: { lexical: { analyze: klingon } }\n');
    // Every accepted analyzer name is listed: Yarrow's own, then Nixiesearch's language codes and names.
    assert.equal(e.message, `c.yml:6: schema.m.fields.t.search.lexical.analyze: expected one of ${analyzerNames.join(', ')} but got "klingon"`);
    assert.ok(e.message.startsWith('c.yml:6: schema.m.fields.t.search.lexical.analyze: expected one of standard, default, english, en, keyword, whitespace, ar, arabic,'));
    assert.deepEqual(e.details, { file: 'c.yml', path: 'schema.m.fields.t.search.lexical.analyze', line: 6, column: 30 });
  });

  it('reports the engine\'s mapping errors with their line, including dotted field names', () => {
    const e = configError('schema:\n  m:\n    fields:\n      meta: { type: text }\n      meta.author: { type: text }\n');
    assert.equal(e.message, 'c.yml:5: schema.m.fields.meta.author: conflicts with field "meta", which would have to be an object');
  });

  it('requires exactly one store kind', () => {
    assert.equal(configError('store:\n  local: {}\n  memory: {}\n').message, 'c.yml:1: store: expected exactly one of local, memory, s3');
  });

  it('rejects index names that are not safe directory names', () => {
    assert.match(configError('schema:\n  "../up":\n    fields: {}\n').message, /^c\.yml:2: schema\.\.\.\/up: index names use letters/);
  });

  it('names the line of a YAML syntax error', () => {
    assert.match(configError('schema:\n  m: [\n').message, /^c\.yml:\d+: invalid YAML: /);
  });
});
