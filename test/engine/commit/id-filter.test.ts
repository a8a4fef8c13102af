/**
 * The writer's per-segment id filters (`id-filter.ts`): a filter never rules out an id its
 * segment holds (deletes stay exact), and rules out nearly every id it does not; through the
 * writer, an update or delete of an id in an older segment, merged or not, still hides the old copy.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { hashIds, hashIdsInto, IdFilter, IdFilterBuilder } from '../../../src/engine/commit/id-filter.js';
import { InversionThread, ThreadedSegmentBuffer } from '../../../src/engine/commit/threaded-segment-buffer.js';
import { validateDocument } from '../../../src/engine/schema/document.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';
import { SegmentReader } from '../../../src/engine/segment/segment-reader.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';
import type { IdSource } from '../../../src/engine/commit/id-filter.js';
import { TimeSlicer } from '../../../src/engine/event-loop.js';
import { Index } from '../../../src/engine/search-index.js';
import { LocalDirectory } from '../../../src/storage/local-directory.js';
import { temporaryDirectories } from '../../helpers/temp-dirs.js';

const tempPath = temporaryDirectories('yarrow-id-filter-');
async function tempDir(): Promise<LocalDirectory> {
  return LocalDirectory.open(await tempPath());
}

/** Ids as a segment hands them to a filter: blocks of UTF-16 units in a reused buffer. */
function source(ids: readonly string[]): IdSource {
  const units = new Uint16Array(8192);
  return {
    idBlocks: Math.ceil(ids.length / 32),
    visitIdUnits(block, visit) {
      for (const id of ids.slice(block * 32, block * 32 + 32)) {
        for (let k = 0; k < id.length; k++) units[k] = id.charCodeAt(k);
        visit(units, id.length);
      }
    },
  };
}

describe('IdFilter', () => {
  const present = Array.from({ length: 20_000 }, (_, i) => `doc-${i}`);
  // Ids a filter must not lose whatever they hold: non-ASCII, astral, empty, long.
  present.push('ünïcödé', '漢字-id', '😀-emoji', '', 'x'.repeat(3000));

  it('answers "may contain" for every id it was built from', async () => {
    const filter = await IdFilter.build(source(present), present.length, new TimeSlicer());
    const hashes = hashIds(present);
    const missed = present.filter((_, i) => !filter.mightContain(hashes, i));
    assert.deepEqual(missed, []);
  });

  it('rules out all but about 1% of ids it was not built from', async () => {
    const filter = await IdFilter.build(source(present), present.length, new TimeSlicer());
    const absent = Array.from({ length: 20_000 }, (_, i) => `doc-${i}~2`);
    const hashes = hashIds(absent);
    const falsePositives = absent.filter((_, i) => filter.mightContain(hashes, i)).length;
    assert.ok(falsePositives < absent.length * 0.02, `${falsePositives} false positives of ${absent.length}`);
  });

  it('hashes ids in parts (as a refresh does, between time slices) exactly as in one go', () => {
    const parts = new Uint32Array(present.length * 2);
    for (let from = 0; from < present.length; from += 1000) hashIdsInto(present, from, Math.min(present.length, from + 1000), parts);
    assert.deepEqual(parts, hashIds(present));
  });

  it('rules out everything when built from no id', async () => {
    const filter = await IdFilter.build(source([]), 0, new TimeSlicer());
    assert.equal(filter.mightContain(hashIds(['a']), 0), false);
  });
});

describe('deletes by id through the filters', () => {
  const mapping = { fields: { title: { type: 'text' } } };
  const titles = (index: Index, q: string): string[] =>
    index.search({ query: { match: { title: q } }, size: 2000 }).hits.map((h) => h._id).sort();

  it('an update of an id in an older segment hides the old version, before and after a merge and a reopen', async () => {
    const dir = await tempDir();
    let index = await Index.open(dir, { mapping, refreshIntervalMs: 0, writer: { merges: false } });
    // Three older segments, so each later refresh consults (and builds) the filter of each.
    // Ids of every kind of UTF-16 content: the filters hash them from the dictionary's UTF-8 bytes.
    const id = (s: number, i: number): string => `s${s}-${['', 'ü', '漢', '😀'][i % 4]}-${i}`;
    for (let s = 0; s < 3; s++) {
      await index.upsert(Array.from({ length: 300 }, (_, i) => ({ _id: id(s, i), title: `old version ${s}` })));
      await index.refresh();
    }
    await index.upsert([{ _id: id(0, 7), title: 'new version' }, { _id: id(2, 299), title: 'new version' }, { _id: id(1, 5), title: 'new version' }, { _id: id(0, 2), title: 'new version' }, { _id: 'fresh', title: 'new version' }]);
    await index.delete([id(1, 150)]);
    await index.refresh();
    assert.deepEqual(titles(index, 'new'), ['fresh', id(0, 7), id(2, 299), id(1, 5), id(0, 2)].sort());
    assert.equal(titles(index, 'old').length, 900 - 5);
    for (const gone of [id(0, 7), id(1, 150), id(1, 5), id(0, 2)]) assert.ok(!titles(index, 'old').includes(gone), gone);

    await index.forceMerge(1);
    await index.upsert([{ _id: id(1, 3), title: 'newest version' }]);
    await index.refresh();
    assert.deepEqual(titles(index, 'newest'), [id(1, 3)]);
    assert.equal(titles(index, 'old').length, 900 - 6);
    await index.close();

    // A reopened writer builds its filters from the committed segments.
    index = await Index.open(dir, { refreshIntervalMs: 0, writer: { merges: false } });
    await index.upsert([{ _id: id(2, 1), title: 'reopened version' }]);
    await index.refresh();
    assert.deepEqual(titles(index, 'reopened'), [id(2, 1)]);
    assert.equal(titles(index, 'old').length, 900 - 7);
    await index.close();
  });
});

describe('IdFilterBuilder', () => {
  it('gives the inversion thread\'s flushed segment a filter holding every id of its term dictionary', async () => {
    const mapping = { fields: { title: { type: 'text' } } };
    const thread = new InversionThread(parseMapping(mapping, 'mapping'));
    const buffer = new ThreadedSegmentBuffer(thread);
    // Doc by doc (the log's form), with a replacement and a delete inside the buffer ...
    for (let i = 0; i < 300; i++) buffer.add(validateDocument(parseMapping(mapping, 'mapping'), { _id: `d${i % 250}`, title: `doc ${i}` }), `d${i % 250}`, `{"title":"doc ${i}"}`);
    buffer.delete('d7');
    // ... and a parsed body, with ids beyond the BMP.
    const body = new TextEncoder().encode(Array.from({ length: 200 }, (_, i) => JSON.stringify({ _id: `b${i}-ŝ東\u{1F600}`, title: `body ${i}` })).join('\n'));
    await buffer.applyParsed(await thread.parseBody(Readable.from([body])), null);
    const flushed = await buffer.flush('seg-000001');
    assert.ok(flushed.idFilter !== undefined);
    const reader = await SegmentReader.open(new MemoryDirectory(), flushed.info, flushed.files);
    const built = await IdFilter.build(reader, flushed.info.maxDoc, new TimeSlicer());
    // Every bit of the dictionary's filter is set: no id the segment holds is ruled out. The
    // thread's may hold more (an id deleted inside the buffer leaves no term).
    assert.equal(flushed.idFilter.bits.length, built.bits.length);
    assert.deepEqual(flushed.idFilter.bits.map((w, i) => w & built.bits[i]), built.bits);
    const absent = hashIds(Array.from({ length: 2000 }, (_, i) => `absent${i}`));
    let passed = 0;
    for (let i = 0; i < 2000; i++) if (flushed.idFilter.mightContain(absent, i)) passed++;
    assert.ok(passed < 100, `${passed} of 2000 absent ids pass`);
    await thread.terminate();
  });

  it('starts over after each build, and a filter rebuilt from its bits answers alike', () => {
    const builder = new IdFilterBuilder();
    for (let i = 0; i < 5000; i++) builder.add(`id${i}`);
    const first = builder.build();
    assert.equal(builder.size, 0);
    const again = new IdFilter(0, first.bits.slice());
    const probes = hashIds(Array.from({ length: 6000 }, (_, i) => `id${i}`));
    for (let i = 0; i < 6000; i++) assert.equal(again.mightContain(probes, i), first.mightContain(probes, i));
    for (let i = 0; i < 5000; i++) assert.ok(first.mightContain(probes, i));
    assert.throws(() => new IdFilter(0, new Uint32Array(3)), /power of two/);
  });
});
