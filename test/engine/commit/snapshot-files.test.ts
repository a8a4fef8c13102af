import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Index } from '../../../src/engine/search-index.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';

const mapping = { fields: { title: { type: 'text' } } };

describe('IndexWriter snapshots', () => {
  it('keep their segment files until released, however many merges and commits happen', async () => {
    const dir = new MemoryDirectory();
    const index = await Index.open(dir, { mapping, refreshIntervalMs: 0, writer: { mergePolicy: { segmentsPerTier: 2, maxMergeAtOnce: 2 } } });
    await index.upsert([{ _id: 'a', title: 'first segment' }]);
    await index.commit();
    // The read side over this process's writer hands out its published snapshots.
    const held = index.reader().acquireSnapshot();
    const heldFiles = held.segments.flatMap((s) => s.reader.info.files.map((f) => f.name));
    assert.ok(heldFiles.length > 0);
    for (let i = 0; i < 6; i++) {
      await index.upsert([{ _id: 'a', title: `rewrite ${i}` }, { _id: `n${i}`, title: 'more' }]);
      await index.commit();
    }
    // The held snapshot's files outlive the commits that dropped them...
    for (const f of heldFiles) assert.ok(await dir.exists(f), `${f} kept while a snapshot uses it`);
    assert.equal(held.segments[0].reader.stored.get(0).title, 'first segment');
    held.release();
    // ...and are deleted once it is released (close waits for pending deletions), since no commit lists them.
    await index.close();
    const remaining = await dir.list();
    for (const f of heldFiles) assert.ok(!remaining.includes(f), `${f} deleted after release`);
  });
});
