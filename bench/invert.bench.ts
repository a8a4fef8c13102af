/**
 * Micro-benchmark of a bulk thread's inversion (tokens -> terms -> postings), split into its
 * layers, on the real code as esbuild bundles it (under tsx the hot loops run several times
 * slower, so this file bundles itself and runs the bundle in a child `node`):
 *
 *   node --import tsx bench/invert.bench.ts [--corpus npm|debian|all] [--rounds N]
 *   YARROW_BENCH_LIMIT=50000 ...   (at most that many docs per corpus)
 *
 * Values are the corpus's searched text fields as the bulk path gets them: an ASCII value as the
 * bytes of its JSON string's contents (escapes included), anything else as a string. Per corpus,
 * each layer in ns per byte and ns per token (median over the rounds, CPU time), the first round
 * apart where a layer starts cold:
 *
 * - `floor`: the byte scan and span hash of `FieldInverter.invertAscii` alone (a copy of its loop);
 * - `probe warm`: + `SharedVocabulary.byteOrdinal` on a vocabulary that knows every span;
 * - `probe cold`: the same on a fresh vocabulary, so every new span is learned (a load's first
 *   pass: normalizeEnglish, Porter2, interning);
 * - `invert warm` / `invert cold`: `FieldInverter.invertAscii` into fresh inverters (+ ordinal
 *   mapping and the postings append), vocabulary warm or fresh;
 * - `invert again`: the warm pass once more into the same inverters, whose terms are all known;
 * - `string warm` / `string cold`: `FieldInverter.invert` on the values that are not ASCII.
 *
 * Set `YARROW_BENCH_TRACE=1` to run the child with `--trace-deopt` and count deopts per function.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Analyzer } from '../src/engine/analysis/analyzer.js';
import { maxTokenLength } from '../src/engine/analysis/analyzer.js';
import { createEnglishAnalyzer } from '../src/engine/analysis/english-analyzer.js';
import { asciiByteClasses, byteApostrophe, byteEscape, byteSeparator } from '../src/engine/analysis/char-class.js';
import { FNV_OFFSET, FNV_PRIME } from '../src/engine/analysis/span-hash.js';
import { FieldInverter } from '../src/engine/segment/field-inverter.js';
import { DROPPED, SharedVocabulary } from '../src/engine/segment/shared-vocabulary.js';
import { CORPORA, CORPUS_NAMES, docLimit, isCorpusName, loadCorpus, REPO_ROOT, textOf } from './corpus.js';
import type { CorpusName } from './corpus.js';

declare const YARROW_INVERT_BUNDLED: boolean | undefined;

/** One corpus's values: ASCII ones as JSON-string bytes (back to back), the others as strings. */
interface Values {
  readonly bytes: Uint8Array;
  /** Per ASCII value: start and end in {@link bytes}, and the field's index. */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly fields: Int32Array;
  readonly strings: readonly string[];
  readonly stringFields: Int32Array;
  readonly stringBytes: number;
  readonly fieldCount: number;
}

function cpuNs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

async function values(name: CorpusName): Promise<Values> {
  const spec = CORPORA[name];
  const docs = await loadCorpus(spec, docLimit());
  const chunks: Buffer[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const fields: number[] = [];
  const strings: string[] = [];
  const stringFields: number[] = [];
  let at = 0;
  let stringBytes = 0;
  // Doc by doc, field by field, as a bulk thread meets them.
  for (const doc of docs) {
    spec.textFields.forEach((field, f) => {
      const text = textOf(doc, field);
      const json = JSON.stringify(text).slice(1, -1);
      // The byte path takes a value whose JSON string is ASCII with no \u escape (bulk-chunk.ts).
      if (/^[\x20-\x7e]*$/.test(json) && !json.includes('\\u')) {
        const b = Buffer.from(json, 'latin1');
        chunks.push(b);
        starts.push(at);
        at += b.length;
        ends.push(at);
        fields.push(f);
      } else {
        strings.push(text);
        stringFields.push(f);
        stringBytes += Buffer.byteLength(text);
      }
    });
  }
  return {
    bytes: new Uint8Array(Buffer.concat(chunks)),
    starts: Int32Array.from(starts),
    ends: Int32Array.from(ends),
    fields: Int32Array.from(fields),
    strings,
    stringFields: Int32Array.from(stringFields),
    stringBytes,
    fieldCount: spec.textFields.length,
  };
}

/**
 * `scanAscii`'s loop (FieldInverter, field-inverter.ts: keep the two in step), each token hashed;
 * with no vocabulary nothing else is done per token (the floor), with one each token is looked up
 * in it (learning the new ones: the probe). Returns tokens (positions taken).
 */
function scanSpans(vocabulary: SharedVocabulary | null, bytes: Uint8Array, start: number, end: number, sums: Int32Array): number {
  const classes = asciiByteClasses;
  let position = 0;
  let i = start;
  while (i < end) {
    const first = classes[bytes[i]];
    if (first === byteSeparator || first === byteApostrophe) {
      i++;
      continue;
    }
    if (first === byteEscape) {
      i += 2;
      continue;
    }
    const begin = i;
    let hash = Math.imul(FNV_OFFSET ^ (bytes[i] | 0x20), FNV_PRIME);
    i++;
    while (i < end) {
      const c = bytes[i];
      if ((c - 0x61) >>> 0 < 26 || (c - 0x30) >>> 0 < 10) {
        hash = Math.imul(hash ^ c, FNV_PRIME);
        i++;
        continue;
      }
      const cls = classes[c];
      if (cls === byteSeparator || cls === byteEscape) break;
      if (cls === byteApostrophe) {
        const after = i + 1 < end ? classes[bytes[i + 1]] : byteSeparator;
        if (after === byteSeparator || after === byteApostrophe || after === byteEscape) break;
      }
      hash = Math.imul(hash ^ (c | 0x20), FNV_PRIME);
      i++;
    }
    if (i - begin <= maxTokenLength) {
      if (vocabulary === null) {
        sums[0] ^= hash;
      } else {
        const ordinal = vocabulary.byteOrdinal(bytes, begin, i, hash);
        if (ordinal !== DROPPED) sums[0] += ordinal;
      }
    }
    position++;
  }
  return position;
}

interface Layer {
  readonly name: string;
  readonly bytes: number;
  readonly tokens: number;
  readonly ns: number[];
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function normalizerOf(analyzer: Analyzer): (token: string) => string | null {
  const decomposed = analyzer.decomposed!;
  return decomposed.normalizeUncached ?? ((token) => decomposed.normalize(token));
}

function runCorpus(name: CorpusName, v: Values, rounds: number): void {
  const asciiBytes = v.bytes.length;
  const n = v.starts.length;
  const sums = new Int32Array(1);
  let tokens = 0;
  for (let k = 0; k < n; k++) tokens += scanSpans(null, v.bytes, v.starts[k], v.ends[k], sums);
  const layers = new Map<string, Layer>();
  const record = (layer: string, bytes: number, count: number, ns: number): void => {
    let l = layers.get(layer);
    if (l === undefined) layers.set(layer, (l = { name: layer, bytes, tokens: count, ns: [] }));
    l.ns.push(ns);
  };
  // Raw tokens of the string values (the tokenizer's, before stop words), as `tokens` counts them.
  let stringTokens = 0;
  const counter = createEnglishAnalyzer('bench-count').decomposed!;
  for (const text of v.strings) counter.tokenize(text, () => stringTokens++);
  for (let r = 0; r < rounds; r++) {
    let t = cpuNs();
    for (let k = 0; k < n; k++) scanSpans(null, v.bytes, v.starts[k], v.ends[k], sums);
    record('floor', asciiBytes, tokens, cpuNs() - t);

    // A fresh analyzer each round: a vocabulary of its own, as a load's thread starts with.
    const analyzer = createEnglishAnalyzer(`bench-${r}`);
    const vocabulary = new SharedVocabulary(normalizerOf(analyzer));
    t = cpuNs();
    for (let k = 0; k < n; k++) scanSpans(vocabulary, v.bytes, v.starts[k], v.ends[k], sums);
    record('probe cold', asciiBytes, tokens, cpuNs() - t);
    t = cpuNs();
    for (let k = 0; k < n; k++) scanSpans(vocabulary, v.bytes, v.starts[k], v.ends[k], sums);
    record('probe warm', asciiBytes, tokens, cpuNs() - t);

    // The inverters of a bulk thread: one per field, over the analyzer's thread vocabulary.
    for (const state of ['cold', 'warm']) {
      const inverters = Array.from({ length: v.fieldCount }, (_, f) => new FieldInverter(`f${f}`, analyzer));
      // Their first document runs the warm-up (outside the timing, as it is outside the steady state).
      for (const inv of inverters) inv.invert(0, ['']);
      t = cpuNs();
      let doc = 1;
      for (let k = 0; k < n; k++) inverters[v.fields[k]].invertAscii(doc++, v.bytes, v.starts[k], v.ends[k]);
      record(`invert ${state}`, asciiBytes, tokens, cpuNs() - t);
      if (state === 'warm') {
        // Again into the same inverters: every term is theirs already (the postings append alone).
        t = cpuNs();
        for (let k = 0; k < n; k++) inverters[v.fields[k]].invertAscii(doc++, v.bytes, v.starts[k], v.ends[k]);
        record('invert again', asciiBytes, tokens, cpuNs() - t);
      }
      t = cpuNs();
      for (let k = 0; k < v.strings.length; k++) inverters[v.stringFields[k]].invert(doc++, [v.strings[k]]);
      record(`string ${state}`, v.stringBytes, stringTokens, cpuNs() - t);
    }
  }
  console.log(
    `${name}: ${n} ASCII values, ${(asciiBytes / 1e6).toFixed(1)} MB, ${tokens} tokens; ${v.strings.length} string values, ${(v.stringBytes / 1e6).toFixed(2)} MB, ${stringTokens} tokens; ${rounds} rounds`,
  );
  console.log('  layer          ns/byte  ns/token   ms   (first round ms)');
  for (const l of layers.values()) {
    const m = median(l.ns);
    const perToken = l.tokens > 0 ? (m / l.tokens).toFixed(1) : '-';
    console.log(`  ${l.name.padEnd(13)} ${(m / l.bytes).toFixed(2).padStart(7)} ${perToken.padStart(9)} ${(m / 1e6).toFixed(1).padStart(6)}   (${(l.ns[0] / 1e6).toFixed(1)})`);
  }
  if (sums[0] === 0x7fffffff) console.log('');
}

function parseArgs(argv: readonly string[]): { corpora: readonly CorpusName[]; rounds: number } {
  let corpora: readonly CorpusName[] = CORPUS_NAMES;
  let rounds = 7;
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === '--corpus' && argv[i + 1] !== 'all') {
      corpora = argv[i + 1].split(',').map((c) => {
        if (!isCorpusName(c)) throw new Error(`unknown corpus ${c}`);
        return c;
      });
    } else if (argv[i] === '--rounds') {
      rounds = Number(argv[i + 1]);
    } else if (argv[i] !== '--corpus') {
      throw new Error('usage: invert.bench.ts [--corpus npm|debian|all] [--rounds N]');
    }
  }
  return { corpora, rounds };
}

async function main(): Promise<void> {
  const { corpora, rounds } = parseArgs(process.argv.slice(2));
  for (const name of corpora) runCorpus(name, await values(name), rounds);
}

if (typeof YARROW_INVERT_BUNDLED === 'undefined') {
  // Under tsx: bundle this file as the CLI's bulk threads are bundled, and run the bundle.
  const { build } = await import('esbuild');
  // Under node_modules (whose packages the bundle loads lazily by require), where lint does not look.
  const out = path.join(REPO_ROOT, 'node_modules', '.cache', 'yarrow-bench', 'invert.bench.mjs');
  mkdirSync(path.dirname(out), { recursive: true });
  await build({
    entryPoints: [fileURLToPath(import.meta.url)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    define: { YARROW_INVERT_BUNDLED: 'true' },
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'warning',
  });
  const flags = process.env.YARROW_BENCH_TRACE === '1' ? ['--trace-deopt'] : [];
  const child = spawnSync(process.execPath, [...flags, out, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, YARROW_BENCH_DATA: process.env.YARROW_BENCH_DATA ?? path.join(REPO_ROOT, '..', 'shared', 'data') } });
  process.exitCode = child.status ?? 1;
} else {
  await main();
}
