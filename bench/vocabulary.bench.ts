/**
 * Micro-benchmark of the token-to-term-id path alone: each corpus's text values handed to
 * `FieldInverter.invertAscii` as the bytes of their JSON strings (as `index file`'s byte-level line
 * reader does), or to `FieldInverter.invert` as strings when they are not ASCII, into fresh
 * inverters each round; nothing is written. The thread's shared vocabulary stays warm from round
 * to round, as a bulk-load worker's does from chunk to chunk, so the figure is the steady state of
 * scan + raw-token lookup + term id + postings append.
 *
 *   node --expose-gc --import tsx bench/vocabulary.bench.ts [--corpus npm|debian|all]
 *   YARROW_BENCH_ROUNDS=5 ... (the best round by CPU time is printed; default 5)
 *
 * Prints per corpus: ns per token and M tokens per CPU-second (best round), and the share of
 * values that took the string path.
 */
import { getAnalyzer } from '../src/engine/analysis/index.js';
import { FieldInverter } from '../src/engine/segment/field-inverter.js';
import { sharedVocabulary } from '../src/engine/segment/shared-vocabulary.js';
import { CORPORA, CORPUS_NAMES, docLimit, isCorpusName, loadCorpus, textOf } from './corpus.js';
import type { CorpusName } from './corpus.js';

interface Value {
  readonly bytes: Uint8Array | null;
  readonly text: string;
}

function parseCorpora(argv: readonly string[]): readonly CorpusName[] {
  if (argv.length === 0 || argv[1] === 'all') return CORPUS_NAMES;
  if (argv.length !== 2 || argv[0] !== '--corpus') throw new Error('usage: vocabulary.bench.ts [--corpus npm|debian|all]');
  return argv[1].split(',').map((c) => {
    if (!isCorpusName(c)) throw new Error(`unknown corpus ${c}; expected ${CORPUS_NAMES.join(', ')} or all`);
    return c;
  });
}

/** The contents of `text`'s JSON string as bytes, or null when it is not ASCII. */
function jsonBytes(text: string): Uint8Array | null {
  const json = JSON.stringify(text);
  for (let i = 0; i < json.length; i++) if (json.charCodeAt(i) >= 0x80) return null;
  // invertAscii reads every escape as two bytes: \uXXXX is not one it takes.
  if (json.includes('\\u')) return null;
  return Buffer.from(json.slice(1, -1), 'latin1');
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** The thread's vocabulary of `analyzer`: its epoch, terms and bytes. */
function vocabularyStats(analyzer: ReturnType<typeof getAnalyzer>): string {
  const vocabulary = sharedVocabulary(analyzer, (token) => token);
  return `epoch ${vocabulary.epoch}, ${vocabulary.terms.length} terms, ${(vocabulary.bytes / 1e6).toFixed(1)} MB`;
}

async function main(): Promise<void> {
  const rounds = Number(process.env.YARROW_BENCH_ROUNDS ?? 5);
  const analyzer = getAnalyzer('english');
  for (const name of parseCorpora(process.argv.slice(2))) {
    const spec = CORPORA[name];
    const docs = await loadCorpus(spec, docLimit());
    const fields = spec.textFields.map((field) => docs.map((doc): Value => {
      const text = textOf(doc, field);
      return { bytes: jsonBytes(text), text };
    }));
    const stringValues = fields.flat().filter((v) => v.bytes === null).length;
    let best = Infinity;
    let tokens = 0;
    for (let r = 0; r < rounds; r++) {
      globalThis.gc?.();
      const inverters = spec.textFields.map((field) => new FieldInverter(field, analyzer));
      const start = cpuMs();
      for (let f = 0; f < fields.length; f++) {
        const inverter = inverters[f];
        const values = fields[f];
        for (let d = 0; d < values.length; d++) {
          const { bytes, text } = values[d];
          if (bytes === null || !inverter.invertAscii(d, bytes, 0, bytes.length)) inverter.invert(d, [text]);
        }
      }
      best = Math.min(best, cpuMs() - start);
      tokens = inverters.reduce((sum, inverter) => sum + inverter.tokenCount, 0);
    }
    console.log(
      `${name}: ${docs.length} docs, ${tokens} tokens, ${((stringValues / fields.flat().length) * 100).toFixed(1)}% of values as strings; ` +
        `vocabulary ${vocabularyStats(analyzer)}; best of ${rounds}: ${best.toFixed(0)} ms CPU, ${((best * 1e6) / tokens).toFixed(1)} ns/token, ${(tokens / best / 1000).toFixed(2)} M tokens/CPU-s`,
    );
  }
}

await main();
