/**
 * `yarrow index file` as a user runs it: the built CLI in a child process.
 *
 * 1. Memory: generates a ~1 GB JSONL file on the fly (YARROW_BENCH_FILE_MB, default 1024), indexes it
 *    with the `dist/cli.js` executable (`yarrow index file`, default `indexing` settings), and reports throughput and the child's peak RSS; then reads
 *    the same file through the ingest pipeline alone (decompress + split + JSON.parse, no engine)
 *    for the pipeline's own peak RSS.
 * 2. Overhead: indexes ../shared/data/npm-packages.jsonl.gz with `index file`, and with the engine
 *    alone (corpus parsed into memory first, untimed; upserts of 5,000 docs; one commit; the same
 *    writer settings and V8 flags as the executable), and prints both rates and their ratio.
 *
 * Run: `npm run build && node --import tsx bench/index-file.bench.ts`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import { Index, LocalDirectory } from '../src/index.js';
import { decompressByMagic, readJsonlBatches } from '../src/ingest/index.js';
import { writerTuning } from '../src/cli/modes/writer-tuning.js';
import { DEFAULT_BUFFER_MB, DEFAULT_MAX_MERGED_SEGMENT_MB } from '../src/config/config-schema.js';
import { NPM_SCHEMA_YAML } from './corpus.js';
import { writeGeneratedJsonl } from './generated-jsonl.js';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The V8 flags of the executable's shebang (src/cli.ts), for children that run the engine directly. */
const EXECUTABLE_V8_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=25'];
const cli = join(root, 'dist', 'cli.js');
const npmCorpus = join(root, '..', 'shared', 'data', 'npm-packages.jsonl.gz');

const GENERATED_MAPPING = `      title: { type: text, search: { lexical: { analyze: english } } }
      body: { type: text, search: { lexical: { analyze: english } } }
      tags: { type: "text[]", search: false, filter: true }
      year: { type: int, filter: true, sort: true }`;
const NPM_FIELDS = {
  name: { type: 'text', search: { lexical: { analyze: 'english' } } },
  summary: { type: 'text', search: { lexical: { analyze: 'english' } } },
  downloads_a_month: { type: 'long', sort: true, filter: true },
};

interface ChildFigures {
  readonly seconds: number;
  readonly maxRssBytes: number;
  readonly stderr: string;
}

/** Runs a node child with YARROW_REPORT_MAX_RSS and returns wall time and peak RSS. */
async function runNode(args: readonly string[], cwd: string): Promise<ChildFigures> {
  return runChild(process.execPath, args, cwd);
}

/**
 * Runs the `yarrow` executable itself, as a user does, so its shebang's V8 flags apply; the
 * `node` it finds on PATH is put first so that it is the one running this benchmark.
 */
async function runYarrow(args: readonly string[], cwd: string): Promise<ChildFigures> {
  return runChild(cli, args, cwd, { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` });
}

async function runChild(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<ChildFigures> {
  const started = performance.now();
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env, YARROW_REPORT_MAX_RSS: '1' }, stdio: ['ignore', 'inherit', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
  const [code] = (await once(child, 'close')) as [number | null];
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}:\n${stderr}`);
  const rss = /max_rss_bytes=(\d+)/.exec(stderr);
  return { seconds, maxRssBytes: rss === null ? NaN : Number(rss[1]), stderr };
}

const words = 'search engine index segment posting term query score rank field document token analyzer stem merge commit flush snapshot reader writer buffer block skip norm vector filter facet sort range match phrase boolean fuzzy prefix wildcard shard replica cluster node yarrow river mountain forest ocean desert city village market garden music movie story'.split(' ');

/** Writes `megabytes` of JSONL; returns the number of documents. */
async function generate(path: string, megabytes: number): Promise<number> {
  let seed = 42;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed % n;
  };
  const sentence = (n: number): string => Array.from({ length: n }, () => words[rnd(words.length)] + (rnd(7) === 0 ? String(rnd(5000)) : '')).join(' ');
  return writeGeneratedJsonl(path, megabytes, (docs) => ({ _id: `doc-${docs}`, title: sentence(6), body: sentence(60), tags: [words[rnd(words.length)], words[rnd(words.length)]], year: 1950 + rnd(75) }));
}

/** Child mode: the ingest pipeline alone over a file. */
async function pipelineOnly(file: string): Promise<void> {
  let docs = 0;
  const { stream } = await decompressByMagic(createReadStream(file, { highWaterMark: 256 * 1024 }));
  for await (const batch of readJsonlBatches(stream, { source: file })) docs += batch.docs.length;
  process.stderr.write(`pipeline docs=${docs}\nmax_rss_bytes=${process.resourceUsage().maxRSS * 1024}\n`);
}

/** Child mode: the engine alone on the npm corpus, parsed into memory first (untimed). */
async function engineOnly(dir: string): Promise<void> {
  const docs: unknown[] = [];
  for await (const line of createInterface({ input: createReadStream(npmCorpus).pipe(createGunzip()) })) if (line !== '') docs.push(JSON.parse(line));
  const started = performance.now();
  // The CLI's default `indexing` settings, write-only like `index file`: only the pipeline differs.
  const index = await Index.open(await LocalDirectory.open(dir), {
    name: 'npm',
    mapping: { fields: NPM_FIELDS },
    refreshIntervalMs: 0,
    searchable: false,
    writer: writerTuning({ buffer_mb: DEFAULT_BUFFER_MB, max_merged_segment_mb: DEFAULT_MAX_MERGED_SEGMENT_MB }),
  });
  for (let i = 0; i < docs.length; i += 5000) await index.upsert(docs.slice(i, i + 5000), { source: 'npm', firstLine: i + 1 });
  await index.commit();
  await index.close();
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(`engine docs=${docs.length} seconds=${seconds.toFixed(3)}\nmax_rss_bytes=${process.resourceUsage().maxRSS * 1024}\n`);
}

function docsPerSecond(stderr: string): { docs: number; seconds: number } {
  const m = /indexing done: (\d+) docs from \d+ files? in ([\d.]+) s/.exec(stderr);
  if (m === null) throw new Error(`no "indexing done" line in:\n${stderr}`);
  return { docs: Number(m[1]), seconds: Number(m[2]) };
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function main(): Promise<void> {
  const [mode, arg] = process.argv.slice(2);
  if (mode === '--pipeline-only') return pipelineOnly(arg);
  if (mode === '--engine-only') return engineOnly(arg);
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run `npm run build` first');
  const work = await mkdtemp(join(tmpdir(), 'yarrow-bench-index-file-'));
  try {
    const fileMb = Number(process.env.YARROW_BENCH_FILE_MB ?? 1024);
    const file = join(work, 'generated.jsonl');
    const generatedDocs = await generate(file, fileMb);
    const size = (await stat(file)).size;
    console.log(`generated ${generatedDocs} docs, ${mb(size)} of JSONL`);
    await writeFile(join(work, 'gen.yml'), `store: { local: { path: ./data } }\nschema:\n  gen:\n    fields:\n${GENERATED_MAPPING}\n`);
    const full = await runYarrow(['index', 'file', '-c', 'gen.yml', '-i', 'gen', '-u', file], work);
    const done = docsPerSecond(full.stderr);
    console.log(`index file, ${mb(size)} JSONL: ${done.docs} docs in ${done.seconds.toFixed(1)} s = ${Math.round(done.docs / done.seconds)} docs/s, ${(size / 1e6 / done.seconds).toFixed(1)} MB/s; peak RSS ${mb(full.maxRssBytes)}`);
    const indexBytes = Number(execFileSync('du', ['-sb', join(work, 'data', 'gen')]).toString().split('\t')[0]);
    console.log(`  index on disk: ${mb(indexBytes)}`);
    await rm(join(work, 'data'), { recursive: true, force: true });
    const pipeline = await runNode(['--import', 'tsx', fileURLToPath(import.meta.url), '--pipeline-only', file], root);
    console.log(`ingest pipeline alone (read + split + JSON.parse), same file: ${pipeline.seconds.toFixed(1)} s, peak RSS ${mb(pipeline.maxRssBytes)}`);
    await rm(file);

    await writeFile(join(work, 'npm.yml'), `store: { local: { path: ./data } }\n${NPM_SCHEMA_YAML}`);
    const npm = await runYarrow(['index', 'file', '-c', 'npm.yml', '-i', 'npm', '-u', npmCorpus], work);
    const npmDone = docsPerSecond(npm.stderr);
    const engine = await runNode([...EXECUTABLE_V8_FLAGS, '--import', 'tsx', fileURLToPath(import.meta.url), '--engine-only', join(work, 'engine-npm')], root);
    const e = /engine docs=(\d+) seconds=([\d.]+)/.exec(engine.stderr);
    if (e === null) throw new Error(engine.stderr);
    const cliRate = npmDone.docs / npmDone.seconds;
    const cliWallRate = npmDone.docs / npm.seconds;
    const engineRate = Number(e[1]) / Number(e[2]);
    console.log(`npm corpus, index file (gunzip + parse + index + commit): ${Math.round(cliRate)} docs/s (${Math.round(cliWallRate)} docs/s counting process start), peak RSS ${mb(npm.maxRssBytes)}`);
    console.log(`npm corpus, engine alone (docs already parsed in memory): ${Math.round(engineRate)} docs/s, peak RSS ${mb(engine.maxRssBytes)} (includes the parsed corpus)`);
    console.log(`pipeline overhead: index file runs at ${((100 * cliRate) / engineRate).toFixed(0)}% of the engine-alone rate`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
