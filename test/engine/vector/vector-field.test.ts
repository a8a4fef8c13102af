import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { LocalDirectory } from '../../../src/storage/local-directory.js';
import { ByteWriter } from '../../../src/engine/codec/bytes/byte-writer.js';
import { writeFooter, writeHeader } from '../../../src/engine/codec/file-format.js';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import {
  VECTORS_MAGIC,
  VECTORS_VERSION,
  VectorEncoding,
  VectorFieldReader,
  VectorFieldWriter,
  VectorSimilarity,
  type VectorFieldOptions,
} from '../../../src/engine/vector/index.js';
import { READ_CHUNK } from '../../../src/engine/vector/codec/sequential-file-reader.js';
import { dequantizeInt8, normalizeInPlace, quantizeInt8 } from '../../../src/engine/vector/quantization.js';
import { bruteForce, clustered, recall } from './vector-data.js';

let path: string;
let dir: LocalDirectory;
let fileNo = 0;

before(async () => {
  path = await mkdtemp(join(tmpdir(), 'yarrow-vectors-'));
  dir = await LocalDirectory.open(path);
});
after(async () => {
  await rm(path, { recursive: true, force: true });
});

/** Writes a field's files and opens them again. */
async function roundTrip(writer: VectorFieldWriter): Promise<{ reader: VectorFieldReader; vectorsFile: string; graphFile: string; files: { vectors: Uint8Array; graph: Uint8Array } }> {
  const files = writer.finish();
  const n = fileNo++;
  const vectorsFile = `seg-${n}.vec`;
  const graphFile = `seg-${n}.hnsw`;
  await dir.writeFile(vectorsFile, files.vectors);
  await dir.writeFile(graphFile, files.graph);
  return { reader: await VectorFieldReader.open(dir, vectorsFile, graphFile), vectorsFile, graphFile, files };
}

async function rejectsWith(promise: Promise<unknown>, code: string, fileName: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof YarrowError, `expected a YarrowError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.ok(error.message.includes(fileName), `message should name ${fileName}: ${error.message}`);
    return true;
  });
}

function options(over: Partial<VectorFieldOptions> = {}): VectorFieldOptions {
  return { dim: 16, similarity: VectorSimilarity.cosine, m: 8, efConstruction: 64, graphThreshold: 100, ...over };
}

describe('VectorFieldWriter and VectorFieldReader', () => {
  it('round-trip docIds and vectors (float32 exactly, int8 as its quantization) through the files', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(VectorEncoding.float32, VectorEncoding.int8),
        fc.constantFrom(VectorSimilarity.cosine, VectorSimilarity.dot),
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.array(fc.float({ min: -10, max: 10, noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 1 }), { minLength: 0, maxLength: 150 }),
        fc.integer({ min: 0, max: 1000 }),
        async (encoding, similarity, dim, seeds, docBase) => {
          const vectors = seeds.map(([s], i) => Float32Array.from({ length: dim }, (_, d) => Math.fround(Math.sin(s * 31 + i * 7 + d) * (1 + Math.abs(s)))));
          const writer = new VectorFieldWriter('v', options({ dim, similarity, encoding }));
          vectors.forEach((v, i) => { writer.add(docBase + 3 * i, v); });
          const { reader } = await roundTrip(writer);
          assert.equal(reader.count, vectors.length);
          assert.equal(reader.dim, dim);
          assert.equal(reader.encoding, encoding);
          assert.equal(reader.similarity, similarity);
          assert.equal(reader.hasGraph, vectors.length >= 100);
          vectors.forEach((v, ord) => {
            assert.equal(reader.docIdOf(ord), docBase + 3 * ord);
            const expected = Float32Array.from(v);
            if (similarity === VectorSimilarity.cosine) normalizeInPlace(expected);
            if (encoding === VectorEncoding.int8) {
              const codes = new Int8Array(dim);
              dequantizeInt8(codes, 0, dim, quantizeInt8(expected, codes, 0), expected);
            }
            assert.deepEqual(reader.vectorStore.vector(ord), expected);
          });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('finds the nearest documents by cosine through the graph, as an exact scan does', async () => {
    const data = clustered(1500, 32, 3);
    const writer = new VectorFieldWriter('v', options({ dim: 32, m: 16, efConstruction: 100 }));
    data.forEach((v, i) => { writer.add(i * 2, v); });
    const { reader } = await roundTrip(writer);
    assert.ok(reader.hasGraph);
    let sum = 0;
    for (const q of clustered(30, 32, 4)) {
      const hits = reader.search(q, 10, { numCandidates: 100 });
      assert.equal(hits.exact, false);
      assert.equal(hits.docIds.length, 10);
      sum += recall(hits.docIds, bruteForce(data, q, 10, true).map((i) => i * 2));
      const exact = reader.exactSearch(q, 10);
      assert.ok(exact.scores[0] <= 1.0001 && exact.scores[0] >= hits.scores[0], 'cosine scores, the exact best at least the graph best');
    }
    assert.ok(sum / 30 >= 0.9, `recall ${sum / 30}`);
  });

  it('applies accept during the search and falls back to an exact scan when the filter is selective', async () => {
    const data = clustered(1200, 16, 8);
    const writer = new VectorFieldWriter('v', options({ encoding: VectorEncoding.float32 }));
    data.forEach((v, i) => { writer.add(i, v); });
    const { reader } = await roundTrip(writer);
    const q = clustered(1, 16, 9)[0];
    const live = (docId: number): boolean => docId % 4 !== 0;
    const filtered = reader.search(q, 5, { accept: live });
    assert.ok(Array.from(filtered.docIds).every(live));
    assert.equal(filtered.exact, false);
    // Five documents pass: the walk would visit far more than five, so it scans them exactly.
    const few = new Set([3, 77, 400, 901, 1111]);
    const selective = reader.search(q, 10, { accept: (d) => few.has(d), acceptCount: few.size });
    assert.equal(selective.exact, true);
    assert.deepEqual(new Set(selective.docIds), few);
    assert.deepEqual(Array.from(selective.docIds), bruteForce(data, q, 10, true, (i) => few.has(i)));
  });

  it('scans a segment below the graph threshold exactly, with no graph stored', async () => {
    const data = clustered(50, 16, 1);
    const writer = new VectorFieldWriter('v', options());
    data.forEach((v, i) => { writer.add(i, v); });
    const { reader, files } = await roundTrip(writer);
    assert.equal(reader.hasGraph, false);
    assert.ok(files.graph.length < 64);
    const q = clustered(1, 16, 2)[0];
    const hits = reader.search(q, 3);
    assert.equal(hits.exact, true);
    assert.deepEqual(Array.from(hits.docIds), bruteForce(data, q, 3, true).slice(0, 3));
  });

  it('merges segments without their deleted documents and without re-quantizing', async () => {
    const a = clustered(300, 16, 21);
    const b = clustered(200, 16, 22);
    const wa = new VectorFieldWriter('v', options());
    a.forEach((v, i) => { wa.add(i, v); });
    const wb = new VectorFieldWriter('v', options());
    b.forEach((v, i) => { wb.add(i, v); });
    const ra = (await roundTrip(wa)).reader;
    const rb = (await roundTrip(wb)).reader;
    const merged = new VectorFieldWriter('v', options());
    merged.addFrom(ra, (d) => (d % 2 === 0 ? -1 : (d - 1) / 2));
    merged.addFrom(rb, (d) => 150 + d);
    const { reader } = await roundTrip(merged);
    assert.equal(reader.count, 350);
    assert.ok(reader.hasGraph);
    assert.deepEqual(reader.vectorStore.vector(0), ra.vectorStore.vector(1));
    assert.equal(reader.docIdOf(0), 0);
    assert.deepEqual(reader.vectorStore.vector(150), rb.vectorStore.vector(0));
    assert.equal(reader.docIdOf(349), 349);
    const self = reader.search(rb.vectorStore.vector(17), 1);
    assert.equal(self.docIds[0], 167);
  });

  it('rejects a vector of the wrong dimension or with a non-finite value as invalid_document naming the field', () => {
    const writer = new VectorFieldWriter('embedding', options({ dim: 3 }));
    assert.throws(() => { writer.add(0, [1, 2]); }, (e: unknown) => e instanceof YarrowError && e.code === ErrorCode.invalidDocument && e.details.field === 'embedding');
    assert.throws(() => { writer.add(0, [1, NaN, 2]); }, (e: unknown) => e instanceof YarrowError && e.code === ErrorCode.invalidDocument && e.details.field === 'embedding[1]');
    assert.equal(writer.count, 0);
  });
});

describe('vector files', () => {
  it('fail with corrupt_index naming the file when any byte is flipped or the file is cut', async () => {
    const writer = new VectorFieldWriter('v', options({ dim: 5, graphThreshold: 10 }));
    clustered(40, 5, 1).forEach((v, i) => { writer.add(i, v); });
    const files = writer.finish();
    for (const [kind, bytes] of [['vec', files.vectors], ['hnsw', files.graph]] as const) {
      await dir.writeFile(`good.vec`, files.vectors);
      await dir.writeFile(`good.hnsw`, files.graph);
      const open = async (damaged: Uint8Array): Promise<unknown> => {
        const name = `damaged.${kind}`;
        await dir.writeFile(name, damaged);
        return kind === 'vec' ? VectorFieldReader.open(dir, name, 'good.hnsw') : VectorFieldReader.open(dir, 'good.vec', name);
      };
      for (let p = 0; p < bytes.length; p += Math.max(1, Math.floor(bytes.length / 300))) {
        for (const mask of [0x01, 0x80]) {
          const damaged = bytes.slice();
          damaged[p] ^= mask;
          await rejectsWith(open(damaged), ErrorCode.corruptIndex, `damaged.${kind}`);
        }
      }
      for (const n of [0, 7, 8, 20, bytes.length >>> 1, bytes.length - 4, bytes.length - 1]) {
        await rejectsWith(open(bytes.slice(0, n)), ErrorCode.corruptIndex, `damaged.${kind}`);
      }
    }
  });

  it('fail with incompatible_format on another format version', async () => {
    const w = new ByteWriter();
    writeHeader(w, VECTORS_MAGIC, VECTORS_VERSION + 1);
    w.writeUint32(0);
    writeFooter(w);
    await dir.writeFile('future.vec', w.toBytes());
    await rejectsWith(VectorFieldReader.open(dir, 'future.vec', 'none.hnsw'), ErrorCode.incompatibleFormat, 'future.vec');
  });

  it('are read in bounded chunks, a file larger than one chunk included', async () => {
    const dim = 64;
    const count = Math.ceil((2.5 * READ_CHUNK) / (dim * 4));
    const writer = new VectorFieldWriter('v', options({ dim, encoding: VectorEncoding.float32, similarity: VectorSimilarity.dot, graphThreshold: count + 1 }));
    const data = clustered(count, dim, 4);
    data.forEach((v, i) => { writer.add(i, v); });
    const { reader, files } = await roundTrip(writer);
    assert.ok(files.vectors.length > 2 * READ_CHUNK);
    assert.deepEqual(reader.vectorStore.vector(count - 1), data[count - 1]);
  });
});
