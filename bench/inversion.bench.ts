/**
 * Micro-benchmark of inversion alone: validated documents into on-disk segments, single-threaded,
 * through the code path the writer's buffer uses (`SegmentBuffer.add`, a flush whenever the
 * buffer's estimate passes the writer's default `maxBufferBytes`, each segment's files written to
 * a directory). Parsing, validation and the stored JSON are prepared untimed first, so the figure
 * is the part of `index file` that analysis, interning, postings and encoding cost.
 *
 *   npm run bench:inversion [-- --corpus npm|debian|all] [-- --baseline <another checkout, e.g. ../../main>]
 *   YARROW_BENCH_ROUNDS=3 YARROW_BENCH_LIMIT=50000 npm run bench:inversion
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/inversion.bench.ts --corpus npm
 *
 * Prints per corpus: docs/s and M chars/s of text (best of the rounds, by process CPU time; wall
 * time alongside), time in GC, and add vs flush time. With `--baseline`, the same work runs through
 * the other checkout's engine too, rounds interleaved, and the ratio to it is printed: on a machine
 * shared with other jobs only figures of one run compare.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { defaultWriterOptions } from '../src/engine/commit/writer-options.js';
import type { Mapping } from '../src/engine/schema/mapping.js';
import type { ValidDocument } from '../src/engine/schema/document.js';
import * as here from './inversion-engine.js';
import { CORPORA, CORPUS_NAMES, docLimit, isCorpusName, loadCorpus, textOf } from './corpus.js';
import type { CorpusName } from './corpus.js';
import { MAPPINGS } from './engines/yarrow.js';

interface Prepared {
  readonly doc: ValidDocument;
  readonly id: string;
  readonly storedJson: string;
}

interface Round {
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly addMs: number;
  readonly flushMs: number;
  readonly gcMs: number;
  readonly segments: number;
  readonly bytes: number;
}

/** The parts of an engine checkout the benchmark drives (./inversion-engine.ts re-exports this one's). */
type Engine = typeof here;

function parseArgs(argv: readonly string[]): { corpora: readonly CorpusName[]; baseline: string | undefined } {
  let corpora: readonly CorpusName[] = CORPUS_NAMES;
  let baseline: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--baseline' && i + 1 < argv.length) {
      baseline = path.resolve(argv[++i]);
    } else if (argv[i] === '--corpus' && i + 1 < argv.length) {
      const value = argv[++i];
      corpora = value === 'all' ? CORPUS_NAMES : value.split(',').map((c) => {
        if (!isCorpusName(c)) throw new Error(`unknown corpus ${c}; expected ${CORPUS_NAMES.join(', ')} or all`);
        return c;
      });
    } else {
      throw new Error(`unknown argument ${argv[i]}; expected --corpus <npm|debian|all> or --baseline <checkout>`);
    }
  }
  return { corpora, baseline };
}

/** The engine of another checkout, loaded from its sources. */
async function loadEngine(root: string): Promise<Engine> {
  const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(root, 'src', 'engine', file)).href)) as T;
  const [analysis, mapping, document, buffer] = await Promise.all([
    load<Pick<Engine, 'getAnalyzer'>>('analysis/index.ts'),
    load<Pick<Engine, 'parseMapping'>>('schema/mapping.ts'),
    load<Pick<Engine, 'validateDocument'>>('schema/document.ts'),
    load<Pick<Engine, 'SegmentBuffer'>>('segment/segment-buffer.ts'),
  ]);
  return { getAnalyzer: analysis.getAnalyzer, parseMapping: mapping.parseMapping, validateDocument: document.validateDocument, SegmentBuffer: buffer.SegmentBuffer };
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration;
}).observe({ entryTypes: ['gc'] });

/** One round: a fresh buffer, every doc added, a flush at the writer's size bound and at the end. */
async function runRound(engine: Engine, mapping: Mapping, docs: readonly Prepared[], dir: string): Promise<Round> {
  const { SegmentBuffer, getAnalyzer } = engine;
  const limit = defaultWriterOptions.maxBufferBytes;
  const gc0 = gcMs;
  const cpu0 = cpuMs();
  const wall0 = performance.now();
  let addMs = 0;
  let flushMs = 0;
  let segments = 0;
  let bytes = 0;
  let buffer = new SegmentBuffer(mapping, getAnalyzer);
  const flush = async (): Promise<void> => {
    const t = performance.now();
    const flushed = await buffer.flush(`_${segments++}`);
    for (const [name, data] of flushed.files) {
      await writeFile(path.join(dir, name), data);
      bytes += data.length;
    }
    buffer = new SegmentBuffer(mapping, getAnalyzer);
    flushMs += performance.now() - t;
  };
  let t = performance.now();
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    buffer.add(d.doc, d.id, d.storedJson);
    // The writer checks its estimate once per batch; every 1024 docs is as often.
    if ((i & 1023) === 1023 && buffer.estimatedBytes > limit) {
      addMs += performance.now() - t;
      await flush();
      t = performance.now();
    }
  }
  addMs += performance.now() - t;
  await flush();
  return { cpuMs: cpuMs() - cpu0, wallMs: performance.now() - wall0, addMs, flushMs, gcMs: gcMs - gc0, segments, bytes };
}

/** One engine's documents and best round on one corpus. */
interface Contender {
  readonly label: string;
  readonly engine: Engine;
  readonly mapping: Mapping;
  readonly docs: Prepared[];
  best: Round | undefined;
}

function prepare(label: string, engine: Engine, name: CorpusName, raw: readonly Record<string, unknown>[]): Contender {
  const mapping = engine.parseMapping({ fields: { _id: { type: 'id' }, ...MAPPINGS[name].fields } }, `schema.${name}`);
  const docs = raw.map((r) => {
    const doc = engine.validateDocument(mapping, r);
    return { doc, id: doc.id!, storedJson: JSON.stringify(doc.stored) };
  });
  return { label, engine, mapping, docs, best: undefined };
}

async function main(): Promise<void> {
  const { corpora, baseline } = parseArgs(process.argv.slice(2));
  const rounds = Number(process.env.YARROW_BENCH_ROUNDS ?? '3');
  if (!Number.isSafeInteger(rounds) || rounds < 1) throw new Error('YARROW_BENCH_ROUNDS must be a positive integer');
  const base = baseline === undefined ? undefined : await loadEngine(baseline);
  for (const name of corpora) {
    const spec = CORPORA[name];
    const raw = await loadCorpus(spec, docLimit());
    let textBytes = 0;
    for (const r of raw) for (const f of spec.textFields) textBytes += textOf(r, f).length;
    const contenders = [prepare('this', here, name, raw)];
    if (base !== undefined) contenders.unshift(prepare('baseline', base, name, raw));
    raw.length = 0;
    for (let r = 0; r < rounds; r++) {
      for (const c of contenders) {
        const dir = await mkdtemp(path.join(tmpdir(), 'yarrow-inversion-'));
        try {
          globalThis.gc?.();
          const round = await runRound(c.engine, c.mapping, c.docs, dir);
          if (c.best === undefined || round.cpuMs < c.best.cpuMs) c.best = round;
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }
    }
    const firstCpu = contenders[0].best!.cpuMs;
    for (const c of contenders) {
      const b = c.best!;
      const docsPerS = Math.round(c.docs.length / (b.cpuMs / 1000));
      const ratio = contenders.length > 1 ? ` | ${(firstCpu / b.cpuMs).toFixed(2)}x baseline` : '';
      console.log(
        `${name} ${c.label}: ${c.docs.length} docs, ${(textBytes / 1e6).toFixed(1)} M text chars | ${docsPerS.toLocaleString('en')} docs/s (cpu ${b.cpuMs.toFixed(0)} ms, wall ${b.wallMs.toFixed(0)} ms), ` +
          `${(textBytes / 1e3 / b.cpuMs).toFixed(1)} M chars/s | add ${b.addMs.toFixed(0)} ms, flush ${b.flushMs.toFixed(0)} ms, gc ${b.gcMs.toFixed(0)} ms | ` +
          `${b.segments} segment(s), ${(b.bytes / 1e6).toFixed(1)} MB${ratio}`,
      );
    }
  }
}

await main();
