import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Index } from '../../src/engine/search-index.js';
import { parseMapping } from '../../src/engine/schema/mapping.js';
import { MemoryDirectory } from '../../src/storage/memory-directory.js';

const mapping = parseMapping(
  {
    fields: {
      title: { type: 'text' },
      'extra_*': { type: 'text', filter: true, facet: true },
      'tracks.name': { type: 'text[]' },
    },
  },
  'schema.albums',
);

describe('Index (wildcard fields and arrays of objects)', () => {
  it('indexes fields a wildcard maps, searchable and filterable by their names, across commits and reopen', async () => {
    const dir = new MemoryDirectory();
    let index = await Index.open(dir, { mapping, refreshIntervalMs: 0 });
    await index.upsert([{ _id: 'a', title: 'first', extra_color: 'red', tracks: [{ name: 'yellow submarine' }, { name: 'help' }] }]);
    await index.commit();
    // The second segment meets extra_size for the first time, and a document without extra_color.
    await index.upsert([
      { _id: 'b', title: 'second', extra_size: 'large', extra_color: 'blue' },
      { _id: 'c', title: 'third', tracks: [{ name: 'teen spirit' }] },
    ]);
    await index.refresh();
    const ids = (r: { hits: readonly { _id: string }[] }): string[] => r.hits.map((h) => h._id).sort();
    assert.deepEqual(ids(index.search({ query: { match: { extra_color: 'red' } } })), ['a']);
    assert.deepEqual(ids(index.search({ query: { match: { extra_size: 'large' } } })), ['b']);
    assert.deepEqual(ids(index.search({ query: { match: { 'tracks.name': 'submarine' } } })), ['a']);
    assert.deepEqual(ids(index.search({ filters: { include: { term: { extra_color: 'blue' } } } })), ['b']);
    const hit = index.search({ query: { match: { 'tracks.name': 'help' } }, fields: ['tracks', 'extra_color'] }).hits[0];
    assert.deepEqual({ ...hit, _score: 0 }, { _id: 'a', _score: 0, extra_color: 'red', tracks: [{ name: 'yellow submarine' }, { name: 'help' }] });
    await index.close();
    index = await Index.open(dir, { mapping, refreshIntervalMs: 0 });
    assert.deepEqual(ids(index.search({ query: { match: { extra_size: 'large' } } })), ['b'], 'replayed from the write-ahead log');
    await index.close();
  });
});
