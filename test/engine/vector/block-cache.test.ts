import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDirectory } from '../../../src/storage/local-directory.js';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { BlockCache, VectorEncoding, VectorFieldReader, VectorFieldWriter, VectorSimilarity, type VectorFieldOptions } from '../../../src/engine/vector/index.js';
import { clustered } from './vector-data.js';

let path: string;
let dir: LocalDirectory;
let fileNo = 0;

before(async () => {
  path = await mkdtemp(join(tmpdir(), 'yarrow-block-cache-'));
  dir = await LocalDirectory.open(path);
});
after(async () => {
  await rm(path, { recursive: true, force: true });
});

function options(over: Partial<VectorFieldOptions> = {}): VectorFieldOptions {
  return { dim: 24, similarity: VectorSimilarity.cosine, m: 8, efConstruction: 64, graphThreshold: 100, ...over };
}

/**
 * Writes a field of `count` vectors whose docIds skip every third docId (so the ordinal -> docId
 * table is not the identity and is read through the cache too), and returns its file names.
 */
async function writeField(count: number, over: Partial<VectorFieldOptions> = {}, gaps = true): Promise<{ vectorsFile: string; graphFile: string; data: Float32Array[] }> {
  const o = options(over);
  const writer = new VectorFieldWriter('v', o);
  const data = clustered(count, o.dim, 11 + fileNo);
  data.forEach((v, i) => { writer.add(gaps ? i + Math.floor(i / 2) : i, v); });
  const files = writer.finish();
  const n = fileNo++;
  const vectorsFile = `paged-${n}.vec`;
  const graphFile = `paged-${n}.hnsw`;
  await dir.writeFile(vectorsFile, files.vectors);
  await dir.writeFile(graphFile, files.graph);
  return { vectorsFile, graphFile, data };
}

function sameHits(a: { docIds: Int32Array; scores: Float32Array; exact: boolean }, b: { docIds: Int32Array; scores: Float32Array; exact: boolean }, what: string): void {
  assert.deepEqual(Array.from(a.docIds), Array.from(b.docIds), `${what}: docIds`);
  assert.deepEqual(Array.from(a.scores), Array.from(b.scores), `${what}: scores`);
  assert.equal(a.exact, b.exact, `${what}: exact`);
}

describe('VectorFieldReader with a BlockCache', () => {
  for (const encoding of [VectorEncoding.int8, VectorEncoding.float32]) {
    it(`answers exactly as the in-memory reader with a tiny cache (forcing eviction) and a big one (${encoding})`, async () => {
      const { vectorsFile, graphFile, data } = await writeField(1500, { encoding });
      const resident = await VectorFieldReader.open(dir, vectorsFile, graphFile);
      const tiny = new BlockCache({ budgetBytes: 4096, pageSize: 4096 });
      const big = new BlockCache({ budgetBytes: 64 << 20 });
      const small = await VectorFieldReader.open(dir, vectorsFile, graphFile, { cache: tiny });
      const large = await VectorFieldReader.open(dir, vectorsFile, graphFile, { cache: big });
      assert.equal(resident.paged, false);
      assert.ok(small.paged && large.paged && small.hasGraph);
      const queries = clustered(25, 24, 99);
      const odd = (docId: number): boolean => docId % 2 === 1;
      for (const [i, q] of queries.entries()) {
        for (const [k, opts] of [[10, {}], [5, { numCandidates: 20 }], [10, { accept: odd }], [10, { accept: odd, acceptCount: 8 }]] as const) {
          const expected = resident.search(q, k, opts);
          sameHits(small.search(q, k, opts), expected, `query ${i} k ${k} tiny cache`);
          sameHits(large.search(q, k, opts), expected, `query ${i} k ${k} big cache`);
        }
        sameHits(small.exactSearch(q, 10, odd), resident.exactSearch(q, 10, odd), `exact query ${i}`);
      }
      for (const ord of [0, 1, 777, data.length - 1]) {
        assert.equal(small.docIdOf(ord), resident.docIdOf(ord));
        assert.deepEqual(small.vectorStore.vector(ord), resident.vectorStore.vector(ord));
      }
      const t = tiny.stats();
      assert.ok(t.evictions > 100, `the tiny cache evicts (${t.evictions})`);
      assert.ok(big.stats().evictions === 0 && big.stats().hits > 0);
    });
  }

  it('holds a field in memory when its records are larger than a cache page, with the same answers', async () => {
    const { vectorsFile, graphFile } = await writeField(150, { dim: 1100, encoding: VectorEncoding.float32 });
    const reader = await VectorFieldReader.open(dir, vectorsFile, graphFile, { cache: new BlockCache({ budgetBytes: 1 << 20, pageSize: 4096 }) });
    const resident = await VectorFieldReader.open(dir, vectorsFile, graphFile);
    assert.equal(reader.paged, false);
    const q = clustered(1, 1100, 8)[0];
    sameHits(reader.search(q, 5), resident.search(q, 5), 'wide records');
  });

  it('never holds more pages than its budget, whatever the searches read', async () => {
    const { vectorsFile, graphFile } = await writeField(3000, { dim: 64 });
    const cache = new BlockCache({ budgetBytes: 10 * 4096 + 123, pageSize: 4096 });
    assert.equal(cache.budgetBytes, 10 * 4096);
    const reader = await VectorFieldReader.open(dir, vectorsFile, graphFile, { cache });
    const memory = cache.kernels.buffer.byteLength;
    for (const q of clustered(40, 64, 5)) {
      reader.search(q, 10, { numCandidates: 200 });
      reader.exactSearch(q, 3);
      const s = cache.stats();
      assert.ok(s.pagesUsed <= 10, `${s.pagesUsed} pages in use`);
    }
    const s = cache.stats();
    assert.equal(s.pagesUsed, 10);
    assert.ok(s.bytesRead > 10 * 4096 && s.misses > 10);
    // The pool was allocated once, at the budget (plus the scratch area and one page of rounding).
    assert.equal(cache.kernels.buffer.byteLength, memory);
    assert.ok(memory <= cache.budgetBytes + 4096 + 3 * 4096 + 65536);
  });

  it('copies records out of a paged reader for a merge exactly', async () => {
    const { vectorsFile, graphFile } = await writeField(400, { encoding: VectorEncoding.int8 }, false);
    const cache = new BlockCache({ budgetBytes: 8192, pageSize: 4096 });
    const paged = await VectorFieldReader.open(dir, vectorsFile, graphFile, { cache });
    const resident = await VectorFieldReader.open(dir, vectorsFile, graphFile);
    const merge = (source: VectorFieldReader): Uint8Array => {
      const writer = new VectorFieldWriter('v', options({ graphThreshold: 10_000 }));
      writer.addFrom(source, (docId) => (docId % 3 === 0 ? -1 : docId));
      return writer.finish().vectors;
    };
    assert.deepEqual(merge(paged), merge(resident));
  });

  it('fails with corrupt_index naming the file when a file is damaged or cut, before any search', async () => {
    const { vectorsFile, graphFile } = await writeField(300);
    const cache = new BlockCache({ budgetBytes: 8192, pageSize: 4096 });
    for (const name of [vectorsFile, graphFile]) {
      const good = await dir.readFile(name);
      const cases = [good.slice(0, good.length >>> 1), good.slice(0, good.length - 1)];
      for (const at of [30, good.length >>> 1, good.length - 12]) {
        const flipped = good.slice();
        flipped[at] ^= 0x10;
        cases.push(flipped);
      }
      for (const damaged of cases) {
        await dir.writeFile('damaged', damaged);
        const open = name === vectorsFile ? VectorFieldReader.open(dir, 'damaged', graphFile, { cache }) : VectorFieldReader.open(dir, vectorsFile, 'damaged', { cache });
        await assert.rejects(open, (e: unknown) => e instanceof YarrowError && e.code === ErrorCode.corruptIndex && e.message.includes('damaged'));
      }
    }
  });

  it('fails a search with corrupt_index naming the file when the file is cut after it was opened', async () => {
    const { vectorsFile, graphFile } = await writeField(2000);
    const cache = new BlockCache({ budgetBytes: 4096, pageSize: 4096 });
    const reader = await VectorFieldReader.open(dir, vectorsFile, graphFile, { cache });
    await truncate(join(path, vectorsFile), 1000);
    assert.throws(
      () => { for (const q of clustered(5, 24, 3)) reader.search(q, 10); },
      (e: unknown) => e instanceof YarrowError && e.code === ErrorCode.corruptIndex && e.message.includes(vectorsFile),
    );
  });
});

describe('BlockCache', () => {
  it('refuses a budget below one page and a page size that is not a power of two', () => {
    assert.throws(() => new BlockCache({ budgetBytes: 1000, pageSize: 4096 }), /at least one page/);
    assert.throws(() => new BlockCache({ pageSize: 5000 }), /power of two/);
  });
});
