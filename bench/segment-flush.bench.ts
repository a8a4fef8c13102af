/**
 * Micro-benchmark of a segment flush's write-out, on this thread: the corpus is cut into the
 * buffers a bulk-load thread fills (`BulkBuffer.addChunk` in 1 MiB chunks, flushed at the
 * writer's default `maxBufferBytes`), untimed; then each buffer's `flush` (sorting the terms,
 * encoding postings, term dictionary, norms, ids and the stored fields' last block) is timed in
 * CPU time. Stored fields are compressed while the buffer fills, so their share is timed apart:
 * every segment's stored JSON compressed again, block by block, with the same writer.
 *
 *   node --expose-gc --max-semi-space-size=4 --heap-growing-percent=25 --import tsx bench/segment-flush.bench.ts [npm|debian ...]
 *   YARROW_BENCH_ROUNDS=5 ... (the best round by CPU time is printed; default 3)
 *   YARROW_FLUSH_PROFILE=prefix ... (a CPU profile of the flushes alone: prefix-<corpus>.cpuprofile)
 *
 * Prints per corpus: flush CPU ms per round (best), stored-fields compression ms (best), and a
 * digest of every file written, which must not change when only the speed of the writers does.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { getAnalyzer } from '../src/engine/analysis/index.js';
import { BulkBuffer } from '../src/engine/commit/bulk-chunk.js';
import { defaultWriterOptions } from '../src/engine/commit/writer-options.js';
import { StoredFieldsWriter } from '../src/engine/codec/stored-fields/stored-fields-writer.js';
import { parseMapping } from '../src/engine/schema/mapping.js';
import { CORPORA, CORPUS_NAMES, docLimit, isCorpusName, loadCorpus } from './corpus.js';
import type { CorpusName } from './corpus.js';
import { TEXT_MAPPINGS } from './engines/yarrow.js';

const CHUNK_BYTES = 1024 * 1024;

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** The corpus as 1 MiB chunks of whole JSON lines. */
function chunksOf(lines: readonly string[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let held: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    held.push(`${line}\n`);
    bytes += line.length + 1;
    if (bytes >= CHUNK_BYTES) {
      chunks.push(Buffer.from(held.join('')));
      held = [];
      bytes = 0;
    }
  }
  if (held.length > 0) chunks.push(Buffer.from(held.join('')));
  return chunks;
}

/** Fills the buffers of one load (untimed). */
function fill(corpus: CorpusName, chunks: readonly Uint8Array[]): BulkBuffer[] {
  const mapping = parseMapping({ fields: { _id: { type: 'id' }, ...TEXT_MAPPINGS[corpus].fields } }, corpus);
  const buffers: BulkBuffer[] = [];
  let buffer = new BulkBuffer(mapping, getAnalyzer, true, true);
  let line = 1;
  for (const chunk of chunks) {
    line = buffer.addChunk(chunk, line, corpus, 'bench:').lastLine + 1;
    if (buffer.buffer.estimatedBytes >= defaultWriterOptions.maxBufferBytes) {
      buffers.push(buffer);
      buffer = new BulkBuffer(mapping, getAnalyzer, true, true);
    }
  }
  if (buffer.maxDoc > 0) buffers.push(buffer);
  return buffers;
}

async function main(): Promise<void> {
  const rounds = Number(process.env.YARROW_BENCH_ROUNDS ?? 3);
  const args = process.argv.slice(2);
  const corpora = args.length === 0 ? CORPUS_NAMES : args.map((c) => (isCorpusName(c) ? c : (() => { throw new Error(`unknown corpus ${c}`); })()));
  for (const corpus of corpora) {
    const docs = await loadCorpus(CORPORA[corpus], docLimit());
    const lines = docs.map((d) => JSON.stringify(d));
    const chunks = chunksOf(lines);
    let bestFlush = Infinity;
    let bestStored = Infinity;
    let digest = '';
    let segments = 0;
    for (let r = 0; r < rounds; r++) {
      const buffers = fill(corpus, chunks);
      globalThis.gc?.();
      const hash = createHash('sha256');
      const profile = process.env.YARROW_FLUSH_PROFILE;
      const session = profile === undefined ? null : new Session();
      if (session !== null) {
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
      }
      const t0 = cpuMs();
      const files: ReadonlyMap<string, Uint8Array>[] = [];
      for (let s = 0; s < buffers.length; s++) files.push((await buffers[s].flush(`_${s}`)).flushed.files);
      bestFlush = Math.min(bestFlush, cpuMs() - t0);
      if (session !== null) {
        const { profile: p } = await session.post('Profiler.stop');
        writeFileSync(`${profile}-${corpus}.cpuprofile`, JSON.stringify(p));
        session.disconnect();
      }
      for (const f of files) for (const name of [...f.keys()].sort()) hash.update(name).update(f.get(name)!);
      digest = hash.digest('hex').slice(0, 16);
      segments = buffers.length;
      buffers.length = 0;
      globalThis.gc?.();
      const encoded = lines.map((l) => Buffer.from(l));
      const t1 = cpuMs();
      const perSegment = Math.ceil(lines.length / segments);
      for (let from = 0; from < encoded.length; from += perSegment) {
        const w = new StoredFieldsWriter();
        for (let i = from; i < Math.min(from + perSegment, encoded.length); i++) w.addRawBytes(encoded[i]);
        w.finish();
      }
      bestStored = Math.min(bestStored, cpuMs() - t1);
    }
    console.log(`${corpus}: ${docs.length} docs, ${segments} segments, flush CPU ${bestFlush.toFixed(0)} ms (${((1000 * bestFlush) / docs.length).toFixed(2)} us/doc), stored fields ${bestStored.toFixed(0)} ms (${((1000 * bestStored) / docs.length).toFixed(2)} us/doc), files ${digest}`);
  }
}

await main();
