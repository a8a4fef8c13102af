/**
 * Micro-benchmark of text analysis alone: tokens/s and docs/s of analyzers over the searched text
 * fields of the shared corpora, parsed into memory first so that only analysis is timed. Each
 * analyzer runs twice per round the way its callers drive it: `analyze` (what queries and the
 * highlighter call) and, when the analyzer is decomposed, `tokenize` plus a per-raw-token cache of
 * `normalize` (what the field inverter does while indexing).
 *
 *   node --import tsx bench/analysis.bench.ts [--corpus npm|debian|all] [--analyzers standard,english]
 *   YARROW_BENCH_LIMIT=50000 YARROW_BENCH_ROUNDS=3 node --import tsx bench/analysis.bench.ts
 *
 * Analyzers in the same run are peers: the report prints each one's ratio to the first.
 */
import { getAnalyzer } from '../src/engine/analysis/index.js';
import type { Analyzer, TokenSink } from '../src/engine/analysis/index.js';
import { CORPORA, CORPUS_NAMES, docLimit, isCorpusName, loadCorpus, textOf } from './corpus.js';
import type { CorpusName } from './corpus.js';

interface Options {
  readonly corpora: readonly CorpusName[];
  readonly analyzers: readonly string[];
  readonly rounds: number;
}

function parseArgs(argv: readonly string[]): Options {
  let corpora: readonly CorpusName[] = CORPUS_NAMES;
  let analyzers: readonly string[] = ['standard', 'english'];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = i + 1 < argv.length ? argv[i + 1] : '';
    if (arg === '--corpus' && value !== '') {
      corpora = value === 'all' ? CORPUS_NAMES : value.split(',').map(checkCorpus);
      i++;
    } else if (arg === '--analyzers' && value !== '') {
      analyzers = value.split(',');
      i++;
    } else {
      throw new Error(`unknown argument ${arg}; expected --corpus <npm|debian|all> or --analyzers <a,b>`);
    }
  }
  const rounds = Number(process.env.YARROW_BENCH_ROUNDS ?? '3');
  if (!Number.isSafeInteger(rounds) || rounds < 1) throw new Error('YARROW_BENCH_ROUNDS must be a positive integer');
  for (const name of analyzers) getAnalyzer(name); // fail before loading a corpus
  return { corpora, analyzers, rounds };
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
    const t0 = performance.now();
    for (const text of texts) analyzer.analyze(text, sink);
    best = Math.min(best, performance.now() - t0);
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
    const t0 = performance.now();
    for (const text of texts) decomposed.tokenize(text, sink);
    best = Math.min(best, performance.now() - t0);
  }
  return { tokens, ms: best };
}

function format(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(0);
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const limit = docLimit();
  console.log(`analysis bench: best of ${options.rounds} rounds, node ${process.version}`);
  console.log('| corpus | analyzer | path | docs | tokens | ms | tokens/s | docs/s | ratio |');
  console.log('|---|---|---|---:|---:|---:|---:|---:|---:|');
  for (const corpusName of options.corpora) {
    const spec = CORPORA[corpusName];
    const docs = await loadCorpus(spec, limit);
    // One string per field value, as the inverter sees them.
    const texts = docs.flatMap((doc) => spec.textFields.map((field) => textOf(doc, field)));
    let peerRate: number | undefined;
    for (const name of options.analyzers) {
      const analyzer = getAnalyzer(name);
      const paths: [string, Measure | null][] = [
        ['analyze', timeAnalyze(analyzer, texts, options.rounds)],
        ['tokenize+cache', timeTokenizeCached(analyzer, texts, options.rounds)],
      ];
      for (const [pathName, m] of paths) {
        if (m === null) continue;
        const rate = (m.tokens / m.ms) * 1000;
        peerRate ??= rate;
        const docsPerSecond = (docs.length / m.ms) * 1000;
        console.log(
          `| ${corpusName} | ${name} | ${pathName} | ${docs.length} | ${m.tokens} | ${m.ms.toFixed(0)} | ${format(rate)} | ${format(docsPerSecond)} | ${(rate / peerRate).toFixed(2)} |`,
        );
      }
    }
  }
  if (sinkChecksum === 0.5) console.log(''); // keeps the checksum observable
}

await main();
