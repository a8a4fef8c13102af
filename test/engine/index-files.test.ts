import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IndexFiles, fileKindOf, indexFileKinds, isDataFile, isMutableFile, liveDocsFile, liveDocsGenerationOf, segmentOf, walFile, walGenerationOf } from '../../src/engine/index-files.js';
import { Index } from '../../src/engine/search-index.js';
import { MemoryDirectory } from '../../src/storage/memory-directory.js';

describe('IndexFiles', () => {
  it('classifies every file an index writes, and nothing else', async () => {
    const dir = new MemoryDirectory();
    const index = await Index.open(dir, { mapping: { fields: { title: { type: 'text' } } }, refreshIntervalMs: 0 });
    await index.upsert([{ _id: '1', title: 'a' }, { _id: '2', title: 'b' }]);
    await index.commit();
    await index.delete(['1']);
    await index.commit();
    const names = await dir.list();
    await index.close();
    for (const name of names) assert.ok(fileKindOf(name) !== undefined, `${name} has a registered kind`);
    assert.ok(names.some((n) => fileKindOf(n) === IndexFiles.liveDocs));
    assert.equal(fileKindOf('notes.txt'), undefined);
    assert.equal(fileKindOf('seg-000001.tdx.bak'), undefined);
  });

  it('gives each binary kind a distinct magic and knows the vector fields\' files of a segment', () => {
    const magics = indexFileKinds.flatMap((k) => (k.magic === null ? [] : [k.magic]));
    assert.equal(new Set(magics).size, magics.length);
    assert.equal(fileKindOf('seg-000003.0.vec'), IndexFiles.vectors);
    assert.equal(fileKindOf('seg-000003.12.hnsw'), IndexFiles.hnsw);
    assert.equal(segmentOf('seg-000003.1.vec'), 'seg-000003');
    assert.ok(!isMutableFile('seg-000003.1.hnsw') && isDataFile('seg-000003.1.hnsw'), 'immutable: S3 caches and ships it like other segment files');
    assert.equal(fileKindOf('seg-000003.vec'), undefined);
  });

  it('round-trips generations and segment names through file names', () => {
    assert.equal(walGenerationOf(walFile(42)), 42);
    assert.equal(walGenerationOf('wal-42.log'), undefined);
    assert.equal(liveDocsGenerationOf(liveDocsFile('seg-00000a', 7)), 7);
    assert.equal(segmentOf('seg-00000a_7.liv'), 'seg-00000a');
    assert.equal(segmentOf('seg-00000a.pst'), 'seg-00000a');
    assert.equal(segmentOf('index.json'), undefined);
  });

  it('tells data files from replaced and transient ones', () => {
    assert.ok(isDataFile('seg-000001.fdt'));
    assert.ok(isDataFile(walFile(1)));
    assert.ok(!isDataFile('index.json'));
    assert.ok(isMutableFile('index.json'));
    assert.ok(isMutableFile('index.json.tmp'));
    assert.ok(isMutableFile('write.lock'));
    assert.ok(!isMutableFile('seg-000001.fdt'));
  });
});
