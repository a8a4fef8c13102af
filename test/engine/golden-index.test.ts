import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { STORED_FIELDS_VERSION } from '../../src/engine/codec/stored-fields/stored-fields-writer.js';
import { Index } from '../../src/engine/search-index.js';
import { LocalDirectory } from '../../src/storage/local-directory.js';

/** An index written by format version 1 (two commits, an upsert and a delete), kept in the repo. */
const golden = fileURLToPath(new URL('../fixtures/golden-v1', import.meta.url));

describe('format version 1', () => {
  it('stays readable: the golden index opens, verifies and answers as when it was written', async () => {
    const index = await Index.open(await LocalDirectory.open(golden), { readOnly: true });
    try {
      await index.verify();
      assert.equal(index.stats().docs, 3);
      const hits = index.search({ query: { match: { title: 'quick fox' } } }).hits;
      assert.deepEqual(hits.map((h) => h._id), ['a', 'd']);
      const dog = index.search({ query: { match: { title: 'dogs' } } }).hits;
      assert.deepEqual(dog.map((h) => [h._id, h.year]), [['b', 1921]]);
      assert.equal(index.search({ query: { match: { title: 'hounds' } } }).total, 0);
    } finally {
      await index.close();
    }
  });

  it('merges its version-1 stored fields into the current version, documents intact', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'yarrow-golden-'));
    try {
      await cp(golden, dir, { recursive: true });
      const index = await Index.open(await LocalDirectory.open(dir));
      try {
        await index.forceMerge(1);
        const hits = index.search({ query: { match: { title: 'quick fox' } } }).hits;
        assert.deepEqual(hits.map((h) => h._id), ['a', 'd']);
        const dog = index.search({ query: { match: { title: 'dogs' } } }).hits;
        assert.deepEqual(dog.map((h) => [h._id, h.year]), [['b', 1921]]);
      } finally {
        await index.close();
      }
      const fdt = (await readdir(dir)).filter((f) => f.endsWith('.fdt'));
      assert.equal(fdt.length, 1);
      const bytes = await readFile(join(dir, fdt[0]));
      assert.equal(bytes.readUInt32LE(4), STORED_FIELDS_VERSION);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
