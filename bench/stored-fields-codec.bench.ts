/**
 * The stored-fields block codecs on the real corpora: zlib deflate-raw level 1 (format version 1)
 * against the hand-written LZ4-class codec (version 2), in the writer's 16 KiB blocks of the
 * documents `yarrow index file` stores for the bench mapping (`_id` + the searched text fields).
 * Prints compress and decompress MB/s (of uncompressed bytes, per CPU second), the ratio (compressed / raw), and
 * the cost of loading one random hit: zlib inflates its whole block, LZ4 decodes the block only up
 * to the document.
 *
 *   YARROW_BENCH_DATA=/work/shared/data node --import tsx bench/stored-fields-codec.bench.ts [blockBytes]
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ByteWriter } from '../src/engine/codec/bytes/byte-writer.js';
import { compressLz4Block, decompressLz4Block, maxCompressedLength } from '../src/engine/codec/stored-fields/lz4-block.js';
import { CORPORA, CORPUS_NAMES, docLimit, loadCorpus } from './corpus.js';

const blockBytes = Number(process.argv[2] ?? 16 * 1024);
const ROUNDS = 5;
const HITS = 20_000;

/** Blocks as the writer builds them: varint doc count, varint lengths, the JSON texts; and each doc's end. */
function buildBlocks(jsons: readonly string[]): { blocks: Uint8Array[]; docEnds: number[][] } {
  const blocks: Uint8Array[] = [];
  const docEnds: number[][] = [];
  const pending = new ByteWriter(blockBytes + 1024);
  let lengths: number[] = [];
  const flush = (): void => {
    if (lengths.length === 0) return;
    const block = new ByteWriter(pending.length + 64);
    block.writeVarint(lengths.length);
    for (const n of lengths) block.writeVarint(n);
    const header = block.length;
    block.writeBytes(pending.view());
    blocks.push(block.toBytes());
    let end = header;
    docEnds.push(lengths.map((n) => (end += n)));
    pending.reset();
    lengths = [];
  };
  for (const json of jsons) {
    lengths.push(pending.writeUtf8(json));
    if (pending.length >= blockBytes || lengths.length >= 1024) flush();
  }
  flush();
  return { blocks, docEnds };
}

/** Best process CPU time of `ROUNDS` runs of `fn`, in ms (CPU, not wall: other jobs on the machine disturb it less). */
function best(fn: () => void): number {
  let min = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    min = Math.min(min, (used.user + used.system) / 1000);
  }
  return min;
}

const fmt = (mb: number, ms: number): string => `${(mb / (ms / 1000)).toFixed(0).padStart(6)} MB/s`;

for (const name of CORPUS_NAMES) {
  const spec = CORPORA[name];
  const docs = await loadCorpus(spec, docLimit());
  const jsons = docs.map((d) => JSON.stringify(Object.fromEntries(['_id', ...spec.textFields].filter((f) => f in d).map((f) => [f, d[f]]))));
  const { blocks, docEnds } = buildBlocks(jsons);
  const raw = blocks.reduce((s, b) => s + b.length, 0);
  const mb = raw / 1e6;

  let zBytes = 0;
  const zipped: Uint8Array[] = [];
  const zCompress = best(() => {
    zBytes = 0;
    zipped.length = 0;
    for (const b of blocks) {
      const c = deflateRawSync(b, { level: 1 });
      zipped.push(c);
      zBytes += c.length;
    }
  });
  const zDecompress = best(() => {
    for (const c of zipped) inflateRawSync(c);
  });

  const scratch = new Uint8Array(maxCompressedLength(blocks.reduce((m, b) => Math.max(m, b.length), 0)));
  let lBytes = 0;
  const packed: Uint8Array[] = [];
  const lCompress = best(() => {
    lBytes = 0;
    packed.length = 0;
    for (const b of blocks) {
      const n = compressLz4Block(b, scratch);
      packed.push(scratch.slice(0, n));
      lBytes += n;
    }
  });
  const lDecompress = best(() => {
    blocks.forEach((b, i) => {
      const out = new Uint8Array(b.length);
      decompressLz4Block(packed[i], packed[i].length, out, { src: 0, out: 0 }, out.length);
    });
  });
  // Verify the round trip once, outside the timing.
  blocks.forEach((b, i) => {
    const out = new Uint8Array(b.length);
    decompressLz4Block(packed[i], packed[i].length, out, { src: 0, out: 0 }, out.length);
    if (Buffer.compare(out, b) !== 0) throw new Error(`block ${i} does not round-trip`);
  });

  // One random hit: which block and which doc in it (same sequence for both codecs).
  let seed = 42;
  const hits = Array.from({ length: HITS }, () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const b = seed % blocks.length;
    return [b, seed % docEnds[b].length] as const;
  });
  const zHit = best(() => {
    for (const [b] of hits) inflateRawSync(zipped[b]);
  });
  const lHit = best(() => {
    for (const [b, d] of hits) {
      const out = new Uint8Array(blocks[b].length);
      decompressLz4Block(packed[b], packed[b].length, out, { src: 0, out: 0 }, docEnds[b][d]);
    }
  });

  console.log(`\n== ${name}: ${docs.length} docs, ${blocks.length} blocks of ${blockBytes} B, ${mb.toFixed(1)} MB stored JSON ==`);
  console.log(`codec         compress   decompress   ratio   one hit (us)`);
  console.log(`zlib level 1  ${fmt(mb, zCompress)}  ${fmt(mb, zDecompress)}  ${((100 * zBytes) / raw).toFixed(1)}%   ${((1000 * zHit) / HITS).toFixed(1)}`);
  console.log(`lz4 (Yarrow)  ${fmt(mb, lCompress)}  ${fmt(mb, lDecompress)}  ${((100 * lBytes) / raw).toFixed(1)}%   ${((1000 * lHit) / HITS).toFixed(1)}`);
  console.log(`lz4 / zlib    ${(zCompress / lCompress).toFixed(2)}x faster  ${(zDecompress / lDecompress).toFixed(2)}x faster  ${(lBytes / zBytes).toFixed(2)}x size  ${(zHit / lHit).toFixed(2)}x faster`);
}
