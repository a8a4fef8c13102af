/**
 * Micro-benchmark of text analysis alone: tokens/s and docs/s of analyzers over the searched text
 * fields of the shared corpora, parsed into memory first so that only analysis is timed. Each
 * analyzer runs the ways its callers drive it: `analyze` (queries, the highlighter); when
 * decomposed, `tokenize` plus a per-raw-token cache of `normalize` (today's field inverter); and,
 * when it has one, `scan`, which makes no strings (for an inverter that interns spans in place).
 * The scan figure counts raw tokens, stop words included. Times are process CPU time (best of
 * the rounds), not wall-clock, so that other jobs on the machine disturb them less.
 *
 *   node --import tsx bench/analysis.bench.ts [--corpus npm|debian|all] [--analyzers standard,english]
 *        [--baseline <path of another checkout's src/engine/analysis/index.ts>]
 *   YARROW_BENCH_LIMIT=50000 YARROW_BENCH_ROUNDS=3 node --import tsx bench/analysis.bench.ts
 *
 * Analyzers in the same run are peers: the report prints each one's ratio to the first row of its
 * corpus. With `--baseline`, the same analyzers of another checkout (e.g. main) run first in the same
 * process, rounds interleaved, so before/after figures share the machine's load.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { getAnalyzer } from '../src/engine/analysis/index.js';
import type { Analyzer, TokenSink } from '../src/engine/analysis/index.js';
import { CORPORA, CORPUS_NAMES, docLimit, isCorpusName, loadCorpus, textOf } from './corpus.js';
import type { CorpusName } from './corpus.js';

interface Options {
  readonly corpora: readonly CorpusName[];
  readonly analyzers: readonly string[];
  readonly rounds: number;
  readonly baseline: string | undefined;
}

function parseArgs(argv: readonly string[]): Options {
  let corpora: readonly CorpusName[] = CORPUS_NAMES;
  let analyzers: readonly string[] = ['standard', 'english'];
  let baseline: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = i + 1 < argv.length ? argv[i + 1] : '';
    if (arg === '--corpus' && value !== '') {
      corpora = value === 'all' ? CORPUS_NAMES : value.split(',').map(checkCorpus);
      i++;
    } else if (arg === '--analyzers' && value !== '') {
      analyzers = value.split(',');
      i++;
    } else if (arg === '--baseline' && value !== '') {
      baseline = path.resolve(value);
      i++;
    } else {
      throw new Error(`unknown argument ${arg}; expected --corpus <npm|debian|all> or --analyzers <a,b>`);
    }
  }
  const rounds = Number(process.env.YARROW_BENCH_ROUNDS ?? '3');
  if (!Number.isSafeInteger(rounds) || rounds < 1) throw new Error('YARROW_BENCH_ROUNDS must be a positive integer');
  for (const name of analyzers) getAnalyzer(name); // fail before loading a corpus
  return { corpora, analyzers, rounds, baseline };
}

function checkCorpus(name: string): CorpusName {
  if (!isCorpusName(name)) throw new Error(`unknown corpus ${name}; expected ${CORPUS_NAMES.join(', ')} or all`);
  return name;
}

/** Best-of-rounds timing of one way of running an analyzer over every text. */
interface Measure {
  readonly tokens: number;
  readonly ms: number;
}

let sinkChecksum = 0;

/**
 * Process CPU time (user + system, all threads) in milliseconds. On a machine shared with other
 * jobs, wall-clock time mostly measures the neighbours; CPU time of this process does not.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** `analyze` over every text, a sink that reads every argument so none is optimised away. */
function timeAnalyze(analyzer: Analyzer, texts: readonly string[], rounds: number): Measure {
  let best = Infinity;
  let tokens = 0;
  const sink: TokenSink = (term, position, start, end) => {
    tokens++;
    sinkChecksum = (sinkChecksum + term.length + position + start + end) | 0;
  };
  for (let r = 0; r < rounds; r++) {
    tokens = 0;
    const t0 = cpuMs();
    for (const text of texts) analyzer.analyze(text, sink);
    best = Math.min(best, cpuMs() - t0);
  }
  return { tokens, ms: best };
}

/** The inverter's path: `tokenize`, then `normalize` once per distinct raw token. */
function timeTokenizeCached(analyzer: Analyzer, texts: readonly string[], rounds: number): Measure | null {
  const decomposed = analyzer.decomposed;
  if (decomposed === undefined) return null;
  let best = Infinity;
  let tokens = 0;
  for (let r = 0; r < rounds; r++) {
    const cache = new Map<string, string | null>();
    const sink: TokenSink = (token, position, start, end) => {
      let term = cache.get(token);
      if (term === undefined) {
        term = decomposed.normalize(token);
        cache.set(token, term);
      }
      if (term !== null) tokens++;
      sinkChecksum = (sinkChecksum + position + start + end) | 0;
    };
    tokens = 0;
    const t0 = cpuMs();
    for (const text of texts) decomposed.tokenize(text, sink);
    best = Math.min(best, cpuMs() - t0);
  }
  return { tokens, ms: best };
}

/**
 * `scan` (no strings), with a sink that hashes each span's characters and lowercases ASCII inline,
 * as an interning consumer would: the floor under the string-making paths.
 */
function timeScan(analyzer: Analyzer, texts: readonly string[], rounds: number): Measure | null {
  const scan = analyzer.scan ?? analyzer.decomposed?.scan;
  if (scan === undefined) return null;
  let best = Infinity;
  let tokens = 0;
  let hash = 0;
  for (let r = 0; r < rounds; r++) {
    tokens = 0;
    const t0 = cpuMs();
    for (const text of texts) {
      scan(text, (_position, start, end) => {
        tokens++;
        let h = 0x811c9dc5;
        for (let i = start; i < end; i++) {
          let c = text.charCodeAt(i);
          if (c >= 0x41 && c <= 0x5a) c |= 0x20;
          h = Math.imul(h ^ c, 0x01000193);
        }
        hash ^= h;
      });
    }
    best = Math.min(best, cpuMs() - t0);
  }
  sinkChecksum = (sinkChecksum + hash) | 0;
  return { tokens, ms: best };
}

function format(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(0);
}

/** One analyzer to time: its label in the report and the instance. */
interface Peer {
  readonly label: string;
  readonly analyzer: Analyzer;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const limit = docLimit();
  let baselineGet: ((name: string) => Analyzer) | undefined;
  if (options.baseline !== undefined) {
    const module = (await import(pathToFileURL(options.baseline).href)) as { getAnalyzer: (name: string) => Analyzer };
    baselineGet = module.getAnalyzer;
  }
  const peers: Peer[] = [];
  for (const name of options.analyzers) {
    if (baselineGet !== undefined) peers.push({ label: `${name} (baseline)`, analyzer: baselineGet(name) });
    peers.push({ label: name, analyzer: getAnalyzer(name) });
  }
  console.log(`analysis bench: best of ${options.rounds} rounds, CPU ms, node ${process.version}`);
  console.log('| corpus | analyzer | path | docs | tokens | ms | tokens/s | docs/s | ratio |');
  console.log('|---|---|---|---:|---:|---:|---:|---:|---:|');
  for (const corpusName of options.corpora) {
    const spec = CORPORA[corpusName];
    const docs = await loadCorpus(spec, limit);
    // One string per field value, as the inverter sees them.
    const texts = docs.flatMap((doc) => spec.textFields.map((field) => textOf(doc, field)));
    // Rounds are interleaved across peers (best of each), so a burst of load hits all alike.
    const results = new Map<string, Measure>();
    for (let r = 0; r < options.rounds; r++) {
      for (const peer of peers) {
        keepBest(results, `${peer.label}|analyze`, timeAnalyze(peer.analyzer, texts, 1));
        const cached = timeTokenizeCached(peer.analyzer, texts, 1);
        if (cached !== null) keepBest(results, `${peer.label}|tokenize+cache`, cached);
        const scanned = timeScan(peer.analyzer, texts, 1);
        if (scanned !== null) keepBest(results, `${peer.label}|scan (no strings)`, scanned);
      }
    }
    let peerRate: number | undefined;
    for (const [key, m] of results) {
      const [label, pathName] = key.split('|');
      const rate = (m.tokens / m.ms) * 1000;
      peerRate ??= rate;
      const docsPerSecond = (docs.length / m.ms) * 1000;
      console.log(
        `| ${corpusName} | ${label} | ${pathName} | ${docs.length} | ${m.tokens} | ${m.ms.toFixed(0)} | ${format(rate)} | ${format(docsPerSecond)} | ${(rate / peerRate).toFixed(2)} |`,
      );
    }
  }
  if (sinkChecksum === 0.5) console.log(''); // keeps the checksum observable
}

function keepBest(results: Map<string, Measure>, key: string, m: Measure): void {
  const best = results.get(key);
  if (best === undefined || m.ms < best.ms) results.set(key, m);
}

await main();
