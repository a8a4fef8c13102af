/**
 * Micro-benchmark of one bulk-load thread's work, on this thread: the corpus as the JSON Lines
 * `index file` reads, cut into the 1 MiB chunks of whole lines the file indexer hands a thread,
 * each decoded, split, parsed, validated and inverted by `BulkBuffer.addChunk`, and the buffer
 * flushed into segment files whenever its estimate passes the writer's default `maxBufferBytes`
 * (the files are encoded, not written). This is the whole of a thread's share of `index file`,
 * without the threads, the reading and the commit, so changes to the pipeline show with less noise
 * than the CLI's wall time on a shared machine.
 *
 *   node --expose-gc --max-semi-space-size=4 --heap-growing-percent=25 --import tsx bench/bulk-chunk.bench.ts [--corpus npm|debian|all]
 *   YARROW_BENCH_ROUNDS=5 ... (the best round by CPU time is printed; default 3)
 *   YARROW_BENCH_MAPPING=text ... (the mapping `yarrow-cli` indexes with: `_id` and the searched fields)
 *   YARROW_BENCH_PATHS=bytes,general ... (only these paths; default all)
 *
 * Runs each round once per path, interleaved: the flat-line fast path reading each line from its
 * bytes (`flat-json-bytes.ts`) with the text of ASCII values inverted from their bytes
 * (`FieldInverter.invertAscii`) (`bytes`); the same with every value inverted from its string
 * (`strings`); and the general path (JSON.parse, validateDocument, JSON.stringify) (`general`).
 * Prints per corpus and path: docs per CPU-second (best round; wall time alongside), time in GC and the
 * share of it, flush time, segments.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getAnalyzer } from '../src/engine/analysis/index.js';
import { BulkBuffer } from '../src/engine/commit/bulk-chunk.js';
import { defaultWriterOptions } from '../src/engine/commit/writer-options.js';
import { parseMapping } from '../src/engine/schema/mapping.js';
import { CORPORA, CORPUS_NAMES, docLimit, isCorpusName, loadCorpus } from './corpus.js';
import type { CorpusName } from './corpus.js';
import { MAPPINGS, TEXT_MAPPINGS } from './engines/yarrow.js';

const CHUNK_BYTES = 1024 * 1024;

interface Round {
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly gcMs: number;
  /** GC time in scavenges of the young generation. */
  readonly minorGcMs: number;
  readonly flushMs: number;
  readonly segments: number;
}

function parseCorpora(argv: readonly string[]): readonly CorpusName[] {
  if (argv.length === 0) return CORPUS_NAMES;
  if (argv.length !== 2 || argv[0] !== '--corpus') throw new Error('usage: bulk-chunk.bench.ts [--corpus npm|debian|all]');
  return argv[1] === 'all' ? CORPUS_NAMES : argv[1].split(',').map((c) => {
    if (!isCorpusName(c)) throw new Error(`unknown corpus ${c}; expected ${CORPUS_NAMES.join(', ')} or all`);
    return c;
  });
}

/** The corpus as JSON Lines cut into chunks of whole lines, with each chunk's first line. */
function chunksOf(lines: readonly string[]): { bytes: Uint8Array; firstLine: number }[] {
  const chunks: { bytes: Uint8Array; firstLine: number }[] = [];
  let held: string[] = [];
  let heldBytes = 0;
  let firstLine = 1;
  const close = (): void => {
    chunks.push({ bytes: Buffer.from(held.join('')), firstLine });
    firstLine += held.length;
    held = [];
    heldBytes = 0;
  };
  for (const line of lines) {
    held.push(`${line}\n`);
    heldBytes += Buffer.byteLength(line) + 1;
    if (heldBytes >= CHUNK_BYTES) close();
  }
  if (held.length > 0) close();
  return chunks;
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** The paths a round can take, as named in the output. */
const PATHS = {
  bytes: { fastPath: true, bytePath: true },
  strings: { fastPath: true, bytePath: false },
  general: { fastPath: false, bytePath: false },
} as const;
type PathName = keyof typeof PATHS;

async function round(corpus: CorpusName, chunks: readonly { bytes: Uint8Array; firstLine: number }[], path: PathName): Promise<Round> {
  const { fastPath, bytePath } = PATHS[path];
  const mappings = process.env.YARROW_BENCH_MAPPING === 'text' ? TEXT_MAPPINGS : MAPPINGS;
  const mapping = parseMapping({ fields: { _id: { type: 'id' }, ...mappings[corpus].fields } }, corpus);
  const flushBytes = defaultWriterOptions.maxBufferBytes;
  globalThis.gc?.();
  let gcMs = 0;
  let minorGcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcMs += e.duration;
      if ((e as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) minorGcMs += e.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const cpu0 = cpuMs();
  const wall0 = performance.now();
  let flushMs = 0;
  let segments = 0;
  let buffer = new BulkBuffer(mapping, getAnalyzer, fastPath, bytePath);
  const flush = async (): Promise<void> => {
    const t = performance.now();
    await buffer.flush(`_${segments++}`);
    flushMs += performance.now() - t;
    buffer = new BulkBuffer(mapping, getAnalyzer, fastPath, bytePath);
  };
  for (const { bytes, firstLine } of chunks) {
    buffer.addChunk(bytes, firstLine, corpus, 'bench:');
    if (buffer.buffer.estimatedBytes >= flushBytes) await flush();
  }
  if (buffer.maxDoc > 0) await flush();
  const cpu = cpuMs() - cpu0;
  const wallMs = performance.now() - wall0;
  // Let the observer deliver the last entries.
  await new Promise((resolve) => setImmediate(resolve));
  observer.disconnect();
  return { cpuMs: cpu, wallMs, gcMs, minorGcMs, flushMs, segments };
}

async function main(): Promise<void> {
  const rounds = Number(process.env.YARROW_BENCH_ROUNDS ?? 3);
  const paths = (process.env.YARROW_BENCH_PATHS?.split(',') ?? Object.keys(PATHS)).map((p) => {
    if (!(p in PATHS)) throw new Error(`unknown path ${p}; expected some of ${Object.keys(PATHS).join(', ')}`);
    return p as PathName;
  });
  for (const corpus of parseCorpora(process.argv.slice(2))) {
    const docs = await loadCorpus(CORPORA[corpus], docLimit());
    const chunks = chunksOf(docs.map((d) => JSON.stringify(d)));
    // The paths' rounds interleaved so that the shared machine's load falls on all alike.
    const best = new Map<PathName, Round>();
    for (let r = 0; r < rounds; r++) {
      for (const path of paths) {
        const result = await round(corpus, chunks, path);
        const b = best.get(path);
        if (b === undefined || result.cpuMs < b.cpuMs) best.set(path, result);
      }
    }
    for (const [path, b] of best) {
      const perCpuS = Math.round(docs.length / (b.cpuMs / 1000));
      const perS = Math.round(docs.length / (b.wallMs / 1000));
      console.log(`${corpus} ${path}: ${docs.length} docs, ${perCpuS} docs/CPU-s (${perS} docs/s wall), CPU ${b.cpuMs.toFixed(0)} ms, GC ${b.gcMs.toFixed(0)} ms (${((100 * b.gcMs) / b.wallMs).toFixed(1)}% of wall; scavenges ${b.minorGcMs.toFixed(0)} ms), flush ${b.flushMs.toFixed(0)} ms, ${b.segments} segments`);
    }
  }
}

await main();
