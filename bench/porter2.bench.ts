/**
 * Micro-benchmark of the Porter2 stemmer on the new-token path: every distinct word of a corpus's
 * searched fields (what a bulk-load thread stems once each), stemmed once per round. Peers in the
 * same run: the Snowball reference (`snowball-stemmers`, which the differential tests hold Porter2
 * to) and, with `--baseline`, the porter2.ts of another checkout (e.g. main), rounds interleaved so
 * that before/after share the machine's load. Times are process CPU time, best of the rounds.
 *
 *   node --import tsx bench/porter2.bench.ts [--baseline <path of another checkout's src/engine/analysis/porter2.ts>]
 *   YARROW_BENCH_DATA=/work/shared/data YARROW_BENCH_ROUNDS=9 node --import tsx bench/porter2.bench.ts
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { porter2 } from '../src/engine/analysis/porter2.js';
import { newSnowballStemmer } from '../src/engine/analysis/snowball.js';
import { tokenizeStandard } from '../src/engine/analysis/standard-analyzer.js';
import { CORPORA, CORPUS_NAMES, docLimit, loadCorpus, textOf } from './corpus.js';

const rounds = Number(process.env.YARROW_BENCH_ROUNDS ?? 7);
const at = process.argv.indexOf('--baseline');
const baselinePath = at > 0 ? process.argv[at + 1] : undefined;

type Stem = (word: string) => string;
const stemmers: [string, Stem][] = [['porter2', porter2]];
if (baselinePath !== undefined) {
  const baseline = (await import(pathToFileURL(path.resolve(baselinePath)).href)) as { porter2: Stem };
  stemmers.push(['porter2 (baseline)', baseline.porter2]);
}
const snowball = newSnowballStemmer('english');
stemmers.push(['snowball-stemmers', (w) => snowball.stem(w)]);

for (const name of CORPUS_NAMES) {
  const spec = CORPORA[name];
  const words = new Set<string>();
  for (const doc of await loadCorpus(spec, docLimit())) {
    for (const field of spec.textFields) tokenizeStandard(textOf(doc, field), (token) => void words.add(token));
  }
  // The words english stems: at least 3 code units, starting below U+0250 (english-stemmer.ts).
  const vocabulary = [...words].filter((w) => w.length > 2 && w.charCodeAt(0) < 0x250);
  for (const word of vocabulary) {
    const expected = snowball.stem(word);
    for (const [label, stem] of stemmers) if (stem(word) !== expected) throw new Error(`${label} stems ${word} to ${stem(word)}, Snowball to ${expected}`);
  }
  const best = new Map<string, number>();
  for (let r = 0; r < rounds; r++) {
    for (const [label, stem] of stemmers) {
      // Fresh strings each round, as a new token is: no cached hash, no earlier result.
      const fresh = vocabulary.map((w) => ` ${w}`.slice(1));
      const start = process.cpuUsage();
      let chars = 0;
      for (const word of fresh) chars += stem(word).length;
      const used = process.cpuUsage(start);
      if (chars === 0) throw new Error('no stems');
      best.set(label, Math.min(best.get(label) ?? Infinity, (used.user + used.system) * 1000));
    }
  }
  console.log(`\n== ${name}: ${vocabulary.length} distinct words, best of ${rounds} rounds (process CPU) ==`);
  const first = best.get(stemmers[0][0])!;
  for (const [label] of stemmers) {
    const ns = best.get(label)!;
    console.log(`${label.padEnd(20)} ${(ns / vocabulary.length).toFixed(0).padStart(6)} ns/word   ${(ns / first).toFixed(2)}x porter2's time`);
  }
}
