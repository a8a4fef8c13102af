import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Index } from '../../../src/engine/search-index.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';

const mapping = {
  fields: {
    title: { type: 'text', search: { lexical: { analyze: 'english' } } },
    body: { type: 'text' },
    tags: { type: 'text[]', search: false, filter: true, facet: true },
    year: { type: 'int', filter: true, sort: true },
  },
};

const words = ['river', 'stone', 'garden', 'yarrow', 'running', 'quiet', 'lantern', 'bridge', 'northern', 'ferry', 'ŝtono', 'höhe', '東京'];

/** Deterministic documents: ids repeat (replacements within and across batches), text varies. */
function batch(round: number, size: number): Record<string, unknown>[] {
  return Array.from({ length: size }, (_, i) => {
    const n = round * size + i;
    const pick = (k: number): string => words[(n * 7 + k * 3) % words.length];
    return {
      _id: `d${n % 700}`,
      title: `${pick(1)} ${pick(2)} ${n}`,
      body: `${pick(3)} ${pick(4)} ${pick(5)} of the ${pick(6)}`,
      tags: [pick(7), pick(8)],
      year: 1900 + (n % 120),
    };
  });
}

/** Everything a search can tell about an index: hits with stored fields, scores, facets. */
function observe(index: Index): unknown {
  const all = index.search({ query: { match_all: {} }, size: 1000, sort: [{ year: 'asc' }] });
  const scored = words.map((w) => index.search({ query: { multi_match: { query: `${w} garden`, fields: ['title', 'body'] } }, size: 20 }));
  const facets = index.search({ query: { match_all: {} }, size: 0, aggs: { tags: { term: { field: 'tags', size: 20 } } } });
  const hits = [...all.hits].sort((a, b) => (a._id < b._id ? -1 : 1));
  return { total: all.total, hits, scored: scored.map((r) => r.hits.map((h) => [h._id, h._score])), facets: facets.aggs };
}

/** Writes the same sequence of batches, deletes, refreshes and a commit through one index. */
async function writeSequence(index: Index): Promise<void> {
  for (let round = 0; round < 6; round++) {
    await index.upsert(batch(round, 250));
    if (round === 2) await index.delete(['d3', 'd4', 'd5', 'missing']);
    if (round % 2 === 1) await index.refresh();
  }
  await index.commit();
  await index.upsert(batch(9, 40));
  await index.delete(['d10']);
}

describe('inversion thread (WriterOptions.inversionThreads)', () => {
  it('builds the same index as inverting on the calling thread: hits, stored fields, scores and facets', async () => {
    const local = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
    // A small buffer limit also flushes by size in the middle of batches.
    const threaded = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, writer: { inversionThreads: 1, maxBufferBytes: 256 * 1024 } });
    await writeSequence(local);
    await writeSequence(threaded);
    await local.refresh();
    await threaded.refresh();
    const expected = observe(local);
    // 700 ids; d3-d5 are deleted and written again later, d10 is deleted last.
    assert.equal((expected as { total: number }).total, 699);
    assert.deepEqual(observe(threaded), expected);
    await local.close();
    await threaded.close();
  });

  it('keeps every acknowledged batch through a crash, replaying the log into a thread again', async () => {
    const dir = new MemoryDirectory();
    const index = await Index.open(dir, { mapping, refreshIntervalMs: 0, writer: { inversionThreads: 1 } });
    await writeSequence(index);
    // The process dies here: the last batch and delete were acknowledged but never committed.
    const replayedLocal = await Index.open(dir.crashCopy(), { refreshIntervalMs: 0 });
    const replayedThreaded = await Index.open(dir.crashCopy(), { refreshIntervalMs: 0, writer: { inversionThreads: 1 } });
    await index.refresh();
    const expected = observe(index);
    assert.deepEqual(observe(replayedLocal), expected);
    assert.deepEqual(observe(replayedThreaded), expected);
    for (const ix of [replayedLocal, replayedThreaded, index]) await ix.close();
  });

  it('rolls back what the thread buffered', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, writer: { inversionThreads: 1 } });
    await index.upsert([{ _id: 'kept', title: 'committed river' }]);
    await index.commit();
    await index.upsert([{ _id: 'gone', title: 'buffered river' }]);
    await index.rollback();
    await index.upsert([{ _id: 'after', title: 'river after the rollback' }]);
    await index.refresh();
    const hits = index.search({ query: { match: { title: 'river' } }, size: 10 }).hits.map((h) => h._id).sort();
    assert.deepEqual(hits, ['after', 'kept']);
    await index.close();
  });
});
