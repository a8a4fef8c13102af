/**
 * Issue 14: pre-embedded vectors end to end through the Index — validated at the edge, logged in
 * the write-ahead log as binary floats, written per segment at flush, merged, reopened, searched
 * with `knn` (deletes, filters, aggregations, paging), replayed after a crash, and refused when
 * damaged. Real directories throughout; the crash uses MemoryDirectory's power-loss model.
 */
import assert from 'node:assert/strict';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { Index } from '../../../src/engine/search-index.js';
import type { SearchResponse } from '../../../src/engine/search-index.js';
import { LocalDirectory } from '../../../src/storage/local-directory.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';
import { bruteForce, clustered } from './vector-data.js';
import { temporaryDirectories } from '../../helpers/temp-dirs.js';

const DIM = 8;
const COLORS = ['red', 'green', 'blue'];

const mapping = {
  fields: {
    title: { type: 'text', search: { lexical: {}, semantic: { dim: DIM, distance: 'cosine', quantize: 'float32' } } },
    color: { type: 'text', filter: true, facet: true },
    n: { type: 'int', filter: true },
  },
};

const tempDir = temporaryDirectories('yarrow-vectors-');

const vectors = clustered(600, DIM, 7);
const queries = clustered(5, DIM, 99);

function doc(i: number): Record<string, unknown> {
  return { _id: `d${i}`, title: { text: `document number ${i}`, embedding: Array.from(vectors[i]) }, color: COLORS[i % 3], n: i };
}

function knn(q: Float32Array, extra: Record<string, unknown> = {}, size = 10): { query: unknown; size: number } {
  return { query: { knn: { field: 'title', query_vector: Array.from(q), ...extra } }, size };
}

function ids(res: SearchResponse): string[] {
  return res.hits.map((h) => h._id);
}

/** The exact nearest docs among `alive` (float32 cosine, so the engine's scan must agree). */
function expected(q: Float32Array, k: number, alive: (i: number) => boolean): string[] {
  return bruteForce(vectors, q, k, true, alive).map((i) => `d${i}`);
}

async function indexInSegments(index: Index, from: number, to: number, segments: number): Promise<void> {
  const per = Math.ceil((to - from) / segments);
  for (let s = from; s < to; s += per) {
    await index.upsert(Array.from({ length: Math.min(per, to - s) }, (_, j) => doc(s + j)));
    await index.refresh();
  }
}

describe('knn over pre-embedded vectors', () => {
  it('finds the exact nearest docs across segments, after a merge and after reopening', async () => {
    const path = await tempDir();
    const open = async (): Promise<Index> => Index.open(await LocalDirectory.open(path), { mapping, refreshIntervalMs: 0, writer: { mergePolicy: { segmentsPerTier: 2, maxMergeAtOnce: 2, floorSegmentBytes: 1 << 20 } } });
    const index = await open();
    await indexInSegments(index, 0, 600, 4);
    const all = (): boolean => true;
    for (const q of queries) assert.deepEqual(ids(index.search(knn(q))), expected(q, 10, all));
    await index.close();
    const files = await readdir(path);
    assert.ok(files.some((f) => /^seg-[0-9a-z]+\.0\.vec$/.test(f)) && files.some((f) => /^seg-[0-9a-z]+\.0\.hnsw$/.test(f)), files.join(' '));
    const manifest = JSON.parse(await readFile(join(path, 'index.json'), 'utf8')) as { segments: { files: { name: string }[]; vectorFields?: unknown[] }[] };
    assert.ok(manifest.segments.length < 4, `merged into ${manifest.segments.length} segments`);
    for (const s of manifest.segments) {
      assert.deepEqual(s.vectorFields, [{ field: 'title', dim: DIM, m: 16, efConstruction: 100 }]);
      assert.ok(s.files.some((f) => f.name.endsWith('.0.vec')) && s.files.some((f) => f.name.endsWith('.0.hnsw')));
    }
    const reopened = await open();
    for (const q of queries) assert.deepEqual(ids(reopened.search(knn(q))), expected(q, 10, all));
    const hit = reopened.search({ ...knn(queries[0]), fields: ['title'] }).hits[0];
    assert.equal(hit.title, `document number ${hit._id.slice(1)}`, 'the text is stored, not the embedding');
    assert.ok(hit._score > 0.5 && hit._score <= 1, `cosine score in (0.5, 1]: ${hit._score}`);
    await reopened.close();
  });

  it('merges vectors in a write-only index (segments hold ids only; the merge loads vectors phase by phase)', async () => {
    const path = await tempDir();
    const writer = await Index.open(await LocalDirectory.open(path), { mapping, refreshIntervalMs: 0, searchable: false, writer: { mergePolicy: { segmentsPerTier: 2, maxMergeAtOnce: 2, floorSegmentBytes: 1 << 20 } } });
    await indexInSegments(writer, 0, 600, 6);
    await writer.delete(['d1', 'd2', 'd3']);
    await writer.close();
    const manifest = JSON.parse(await readFile(join(path, 'index.json'), 'utf8')) as { segments: unknown[] };
    assert.ok(manifest.segments.length < 6, `merged into ${manifest.segments.length} segments`);
    const reader = await Index.open(await LocalDirectory.open(path), { readOnly: true });
    const alive = (i: number): boolean => i < 1 || i > 3;
    for (const q of queries) assert.deepEqual(ids(reader.search(knn(q))), expected(q, 10, alive));
    await reader.close();
  });

  it('leaves deleted and replaced docs out, in the buffer, in segments and after a merge', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0, writer: { mergePolicy: { segmentsPerTier: 2, maxMergeAtOnce: 2, floorSegmentBytes: 1 << 20 } } });
    await indexInSegments(index, 0, 600, 3);
    const q = queries[1];
    const top = expected(q, 5, () => true);
    await index.delete(top.slice(0, 2));
    // d-top[2] moves far away: it is replaced by a copy with the vector of a doc that is not near.
    const far = bruteForce(vectors, q, 600, true).at(-1)!;
    await index.upsert([{ ...doc(Number(top[2].slice(1))), title: { text: 'moved', embedding: Array.from(vectors[far]) } }]);
    await index.refresh();
    const gone = new Set([...top.slice(0, 3)].map((id) => Number(id.slice(1))));
    const got = ids(index.search(knn(q, {}, 10)));
    assert.deepEqual(got, expected(q, 10, (i) => !gone.has(i)));
    await index.close();
  });

  it('applies the request filters inside the walk, and aggregates, pages and projects the k hits', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
    await indexInSegments(index, 0, 600, 2);
    const q = queries[2];
    const red = (i: number): boolean => i % 3 === 0;
    const filtered = index.search({ ...knn(q, { k: 20 }), size: 20, filters: { include: { term: { color: 'red' } } } });
    assert.deepEqual(ids(filtered), expected(q, 20, red), 'the 20 nearest red docs, not the red docs among the 20 nearest');
    const selective = index.search({ ...knn(q), filters: { include: { range: { n: { lt: 12 } } } } });
    assert.deepEqual(ids(selective), expected(q, 10, (i) => i < 12));
    const aggs = index.search({ ...knn(q, { k: 30 }), size: 0, aggs: { colors: { term: { field: 'color' } } } });
    const buckets = (aggs.aggs!.colors as { buckets: { term: string; count: number }[] }).buckets;
    assert.equal(buckets.reduce((s, b) => s + b.count, 0), 30, 'counted over the k hits');
    assert.equal(aggs.total, 30);
    const all = expected(q, 15, () => true);
    const page = index.search({ ...knn(q), from: 10, size: 5 });
    assert.deepEqual(ids(page), all.slice(10, 15), 'k defaults to from + size');
    assert.deepEqual(ids(index.search(knn(q, { k: 3 }))), all.slice(0, 3), 'k caps the hits');
    const combined = index.search({ query: { bool: { should: [{ knn: { field: 'title', query_vector: Array.from(q), k: 5 } }, { match: { title: 'number' } }] } }, size: 3 });
    assert.equal(combined.hits.length, 3);
    assert.ok(all.slice(0, 5).includes(combined.hits[0]._id), 'knn clauses add their scores in bool');
    await index.close();
  });

  it('builds the HNSW graph without holding the event loop, and answers from it with high recall', async () => {
    const big = clustered(5000, 16, 3);
    const bigMapping = { fields: { v: { type: 'text', search: { semantic: { dim: 16, distance: 'cosine', quantize: 'int8' } } } } };
    const index = await Index.open(new MemoryDirectory(), { mapping: bigMapping, refreshIntervalMs: 0 });
    await index.upsert(big.map((v, i) => ({ _id: String(i), v: { embedding: Array.from(v) } })));
    // The graph build of the flush gives the event loop turns (it takes about a second here).
    let turns = 0;
    let building = true;
    const spin = (): void => {
      turns++;
      if (building) setImmediate(spin);
    };
    setImmediate(spin);
    await index.refresh();
    building = false;
    assert.ok(turns > 10, `the event loop ran ${turns} times during the flush`);
    let found = 0;
    const qs = clustered(20, 16, 5);
    for (const q of qs) {
      const want = new Set(bruteForce(big, q, 10, true).map(String));
      found += ids(index.search({ query: { knn: { field: 'v', query_vector: Array.from(q) } } })).filter((id) => want.has(id)).length;
    }
    assert.ok(found / (qs.length * 10) >= 0.9, `recall@10 ${found / (qs.length * 10)}`);
    await index.close();
  });
});

describe('vector validation', () => {
  const bad = async (third: Record<string, unknown>, field: RegExp, expectedText: string, actual: RegExp): Promise<void> => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
    await assert.rejects(index.upsert([doc(0), doc(1), { _id: 'bad', ...third }], { source: 'docs.jsonl', firstLine: 10 }), (e: unknown) => {
      assert.ok(e instanceof YarrowError && e.code === ErrorCode.invalidDocument, String(e));
      assert.equal(e.details.line, 12);
      assert.match(String(e.details.field), field);
      assert.equal(e.details.expected, expectedText);
      assert.match(String(e.details.actual), actual);
      assert.match(e.message, /docs\.jsonl, line 12/);
      return true;
    });
    await index.refresh();
    assert.equal(index.search({ query: { match_all: {} } }).total, 0, 'nothing of the batch is indexed');
    await index.close();
  };

  it('rejects a wrong dimension, naming line and field', () => bad({ title: { text: 'x', embedding: [1, 2, 3] } }, /^title\.embedding$/, `an array of ${DIM} numbers`, /3 numbers/));
  it('rejects a non-number', () => bad({ title: { text: 'x', embedding: [1, 2, '3', 4, 5, 6, 7, 8] } }, /^title\.embedding\[2\]$/, 'number', /string/));
  it('rejects NaN and Infinity', async () => {
    await bad({ title: { text: 'x', embedding: [1, 2, 3, NaN, 5, 6, 7, 8] } }, /^title\.embedding\[3\]$/, 'finite number', /not finite/);
    await bad({ title: { text: 'x', embedding: JSON.parse('[1e999, 2, 3, 4, 5, 6, 7, 8]') as number[] } }, /^title\.embedding\[0\]$/, 'finite number', /not finite/);
  });
  it('rejects an embedding that is not an array, and unknown keys', async () => {
    await bad({ title: { text: 'x', embedding: 'nope' } }, /^title\.embedding$/, `an array of ${DIM} numbers`, /string/);
    await bad({ title: { text: 'x', vector: [1] } }, /^title\.vector$/, 'only "text" and "embedding" in a pre-embedded value', /array/);
  });

  it('rejects a knn query vector of the wrong dimension', async () => {
    const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
    assert.throws(() => index.search({ query: { knn: { field: 'title', query_vector: [1, 2] } } }), (e: unknown) => e instanceof YarrowError && e.code === ErrorCode.invalidQuery && /query_vector/.test(e.message));
    assert.throws(() => index.search({ query: { knn: { field: 'color', query_vector: [1] } } }), /no vector index/);
    await index.close();
  });

  it('indexes plain text of a dim field without a vector, and keeps text[] to one vector per doc', async () => {
    const multi = { fields: { tags: { type: 'text[]', search: { lexical: {}, semantic: { dim: 2, distance: 'dot' } } } } };
    const index = await Index.open(new MemoryDirectory(), { mapping: multi, refreshIntervalMs: 0 });
    await index.upsert([
      { _id: 'plain', tags: ['no vector here'] },
      { _id: 'multi', tags: ['first', { text: 'second', embedding: [1, 0] }, { text: 'third', embedding: [0, 1] }] },
    ]);
    await index.refresh();
    assert.deepEqual(ids(index.search({ query: { match: { tags: 'vector' } } })), ['plain']);
    const res = index.search({ query: { knn: { field: 'tags', query_vector: [0, 1] } }, fields: ['tags'] });
    assert.deepEqual(ids(res), ['multi'], 'only docs with a vector match');
    assert.equal(res.hits[0]._score, 1, 'the first embedding ([1, 0]) is the doc vector: dot 0 scores 1');
    assert.deepEqual(res.hits[0].tags, ['first', 'second', 'third']);
    await index.close();
  });
});

describe('vectors in the write-ahead log', () => {
  it('replays vectors after a crash bit for bit, for pre-embedded and model fields alike, without an embedder', async () => {
    const modelMapping = { fields: { ...mapping.fields, body: { type: 'text', search: { semantic: { model: 'minilm' } } } } };
    const dir = new MemoryDirectory();
    const index = await Index.open(dir, { mapping: modelMapping, refreshIntervalMs: 0, writer: { merges: false } });
    await index.commit();
    await index.upsert(Array.from({ length: 50 }, (_, i) => doc(i)));
    // What the embedder hands the writer: a model field's text with its vector filled in.
    const valid = index.validate({ _id: 'embedded', body: 'text a model embedded' });
    await index.writer().upsertValidated([{ ...valid, vectors: new Map([['body', Float32Array.from([0.25, -1, 0.5])]]) }]);
    await index.refresh();
    const before = index.search(knn(queries[3]));
    const crashed = dir.crashCopy();
    await index.close();
    const wal = (await crashed.list()).filter((n) => n.startsWith('wal-')).sort().at(-1)!;
    const bytes = await crashed.readFile(wal);
    assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true), 3, 'log version 3');
    assert.ok(!new TextDecoder().decode(bytes).includes(String(vectors[0][0])), 'vectors are not logged as JSON number text');
    const replayed = await Index.open(crashed, { refreshIntervalMs: 0 });
    const after = replayed.search(knn(queries[3]));
    assert.deepEqual(after.hits, before.hits, 'same docs, same scores');
    const model = replayed.search({ query: { knn: { field: 'body', query_vector: [0.25, -1, 0.5] } } });
    assert.deepEqual(ids(model), ['embedded']);
    await replayed.close();
  });

  it('refuses a model field whose text reaches the log without a vector, and logs nothing', async () => {
    const modelMapping = { fields: { body: { type: 'text', search: { semantic: { model: 'minilm' } } } } };
    const index = await Index.open(new MemoryDirectory(), { mapping: modelMapping, refreshIntervalMs: 0 });
    // No embedder for the model: the embedding step before the log refuses the batch.
    await assert.rejects(index.upsert([{ _id: 'a', body: 'not embedded' }]), (e: unknown) => {
      assert.ok(e instanceof YarrowError && e.code === ErrorCode.embeddingFailed, String(e));
      assert.equal(e.details.field, 'body');
      assert.match(e.message, /model "minilm"/);
      return true;
    });
    assert.equal(index.stats().walBytes, 0);
    await index.close();
  });
});

describe('vector files', () => {
  it('refuses to open an index whose vectors file is damaged, naming the file', async () => {
    const path = await tempDir();
    const index = await Index.open(await LocalDirectory.open(path), { mapping, refreshIntervalMs: 0 });
    await indexInSegments(index, 0, 100, 1);
    await index.close();
    const name = (await readdir(path)).find((f) => f.endsWith('.vec'))!;
    const bytes = await readFile(join(path, name));
    bytes[bytes.length >> 1] ^= 0x40;
    await writeFile(join(path, name), bytes);
    await assert.rejects(Index.open(await LocalDirectory.open(path), { refreshIntervalMs: 0 }), (e: unknown) => {
      assert.ok(e instanceof YarrowError && e.code === ErrorCode.corruptIndex, String(e));
      assert.match(e.message, new RegExp(name.replace('.', '\\.')));
      return true;
    });
    await assert.rejects(Index.open(await LocalDirectory.open(path), { refreshIntervalMs: 0, readOnly: true }), /checksum/);
  });
});
