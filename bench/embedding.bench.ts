/**
 * `npm run bench:embedding`: the local ONNX embedding model (all-MiniLM-L6-v2 from
 * scripts/models/fetch-minilm.sh) as Yarrow runs it, against the same runtime, tokenizer and model
 * used carelessly (inference on the main thread, the runtime's default memory arena, batches of 32
 * in input order padded to their longest text). Each runs in a child process of its own, so load
 * time and peak RSS are its alone. Figures: model load time, docs/s for short texts (Debian package
 * summaries) and ~256-token passages (descriptions), one-at-a-time query latency p50/p99, peak RSS,
 * and the longest event-loop stall while embedding (what an HTTP server would feel).
 *
 * Sizes: YARROW_BENCH_SHORT (default 512), YARROW_BENCH_PASSAGES (64), YARROW_BENCH_QUERIES (60).
 * Corpus: YARROW_BENCH_DATA or ../shared/data (bench/corpus.ts).
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { onnxEmbeddingSchema, openEmbedder } from '../src/inference/index.js';
import { poolInto } from '../src/inference/pooling.js';
import type { TextTokenizer } from '../src/inference/token-batches.js';
import { CORPORA, loadCorpus } from './corpus.js';

const MODEL_DIR = fileURLToPath(new URL('../.tools/models/all-MiniLM-L6-v2', import.meta.url));
const count = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);

interface Inputs {
  short: string[];
  passages: string[];
  queries: string[];
}

interface Figures {
  engine: string;
  loadMs: number;
  shortDocsPerS: number;
  passageDocsPerS: number;
  passageTokens: number;
  queryP50Ms: number;
  queryP99Ms: number;
  peakRssMb: number;
  maxLoopStallMs: number;
}

/** What a scenario embeds with. */
interface Runner {
  embed(texts: string[]): Promise<unknown>;
  close(): Promise<void>;
}

async function inputs(): Promise<Inputs> {
  const docs = await loadCorpus(CORPORA.debian, 20_000);
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  const summaries = docs.map((d) => text(d.summary)).filter((s) => s.length > 0);
  const descriptions = docs.map((d) => text(d.description)).filter((s) => s.length > 200);
  const passages: string[] = [];
  // ~1,150 characters of English package prose is ~256 WordPiece tokens.
  for (let i = 0; passages.length < count('YARROW_BENCH_PASSAGES', 64); i++) {
    let p = '';
    while (p.length < 1150) p += `${descriptions[i++ % descriptions.length]} `;
    passages.push(p.slice(0, 1150));
  }
  const n = count('YARROW_BENCH_SHORT', 512);
  return { short: summaries.slice(0, n), passages, queries: summaries.slice(n, n + count('YARROW_BENCH_QUERIES', 60)) };
}

async function yarrowRunner(): Promise<Runner> {
  const model = await openEmbedder('minilm', onnxEmbeddingSchema.parse({ provider: 'onnx', model: MODEL_DIR, cache: false }), { cacheDir: tmpdir() });
  return { embed: (texts) => model.embed(texts, 'document'), close: () => model.close() };
}

/** The same model used carelessly: main thread, default session options, batches in input order. */
async function carelessRunner(): Promise<Runner> {
  const HfTokenizer = Tokenizer as unknown as new (json: object, config: object) => TextTokenizer;
  const tokenizer = new HfTokenizer(JSON.parse(await readFile(join(MODEL_DIR, 'tokenizer.json'), 'utf8')) as object, JSON.parse(await readFile(join(MODEL_DIR, 'tokenizer_config.json'), 'utf8')) as object);
  const session = await ort.InferenceSession.create(join(MODEL_DIR, 'model.onnx'));
  return {
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let b = 0; b < texts.length; b += 32) {
        const encoded = texts.slice(b, b + 32).map((t) => tokenizer.encode(t).ids.slice(0, 512));
        const seq = Math.max(...encoded.map((e) => e.length));
        const n = encoded.length * seq;
        const ids = new BigInt64Array(n);
        const mask = new BigInt64Array(n);
        encoded.forEach((e, r) => {
          e.forEach((id, t) => {
            ids[r * seq + t] = BigInt(id);
            mask[r * seq + t] = 1n;
          });
        });
        const shape = [encoded.length, seq];
        const result = await session.run({ input_ids: new ort.Tensor('int64', ids, shape), attention_mask: new ort.Tensor('int64', mask, shape), token_type_ids: new ort.Tensor('int64', new BigInt64Array(n), shape) });
        const hidden = result.last_hidden_state as ort.TypedTensor<'float32'>;
        const pooled = new Float32Array(encoded.length * 384);
        poolInto(pooled, hidden.data, encoded.length, seq, 384, encoded.map((e) => e.length), 'mean', true);
        for (let r = 0; r < encoded.length; r++) out.push(pooled.subarray(r * 384, (r + 1) * 384));
      }
      return out;
    },
    close: () => session.release(),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

async function child(engine: string): Promise<void> {
  const input = await inputs();
  const mark = (stage: string): void => {
    if (process.env.YARROW_BENCH_TRACE === '1') process.stderr.write(`${engine} ${stage}: rss ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB\n`);
  };
  mark('corpus loaded');
  let peak = 0;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 10);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const t0 = performance.now();
  const runner = engine === 'yarrow' ? await yarrowRunner() : await carelessRunner();
  const loadMs = performance.now() - t0;
  mark('model loaded');
  await runner.embed(input.short.slice(0, 8)); // warm-up
  loop.enable();
  let t = performance.now();
  await runner.embed(input.short);
  const shortDocsPerS = input.short.length / ((performance.now() - t) / 1000);
  mark('short embedded');
  t = performance.now();
  await runner.embed(input.passages);
  const passageDocsPerS = input.passages.length / ((performance.now() - t) / 1000);
  mark(`passages embedded (peak so far ${(peak / 1048576).toFixed(0)} MB)`);
  loop.disable();
  const latencies: number[] = [];
  for (const q of input.queries) {
    const s = performance.now();
    await runner.embed([q]);
    latencies.push(performance.now() - s);
  }
  latencies.sort((a, b) => a - b);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  await runner.close();
  const HfTokenizer = Tokenizer as unknown as new (json: object, config: object) => TextTokenizer;
  const tok = new HfTokenizer(JSON.parse(await readFile(join(MODEL_DIR, 'tokenizer.json'), 'utf8')) as object, {});
  const passageTokens = input.passages.reduce((s, p) => s + tok.encode(p).ids.length, 0) / input.passages.length;
  const figures: Figures = {
    engine,
    loadMs,
    shortDocsPerS,
    passageDocsPerS,
    passageTokens,
    queryP50Ms: percentile(latencies, 0.5),
    queryP99Ms: percentile(latencies, 0.99),
    peakRssMb: peak / 1024 / 1024,
    maxLoopStallMs: loop.max / 1e6,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

function main(): void {
  const self = fileURLToPath(import.meta.url);
  const rows: Figures[] = [];
  for (const engine of ['yarrow', 'careless']) {
    const out = execFileSync(process.execPath, [...process.execArgv, self, '--child', engine], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 });
    rows.push(JSON.parse(out.trim().split('\n').at(-1)!) as Figures);
  }
  console.log(`all-MiniLM-L6-v2 (ONNX, int8), ${availableParallelism()} cores; passages average ${rows[0].passageTokens.toFixed(0)} tokens`);
  const f = (n: number, d = 1): string => n.toFixed(d).padStart(10);
  console.log(`${'engine'.padEnd(10)}${'load ms'.padStart(10)}${'short/s'.padStart(10)}${'256tok/s'.padStart(10)}${'q p50 ms'.padStart(10)}${'q p99 ms'.padStart(10)}${'peak MB'.padStart(10)}${'stall ms'.padStart(10)}`);
  for (const r of rows) console.log(`${r.engine.padEnd(10)}${f(r.loadMs, 0)}${f(r.shortDocsPerS)}${f(r.passageDocsPerS)}${f(r.queryP50Ms)}${f(r.queryP99Ms)}${f(r.peakRssMb, 0)}${f(r.maxLoopStallMs, 0)}`);
  const [y, c] = rows;
  console.log(`ratios yarrow/careless: short docs/s ${(y.shortDocsPerS / c.shortDocsPerS).toFixed(2)}x, passages/s ${(y.passageDocsPerS / c.passageDocsPerS).toFixed(2)}x, query p50 ${(y.queryP50Ms / c.queryP50Ms).toFixed(2)}x, peak RSS ${(y.peakRssMb / c.peakRssMb).toFixed(2)}x, longest event-loop stall ${(y.maxLoopStallMs / c.maxLoopStallMs).toFixed(3)}x`);
}

const at = process.argv.indexOf('--child');
if (at >= 0) await child(process.argv[at + 1]);
else main();
