/**
 * Peak memory of `yarrow index file` on big inputs of long documents (issue 17: at most 300 MB
 * whatever the input size, 1 GB of 10 KB documents included, with the default settings).
 *
 * 1. Generates `YARROW_BENCH_MEMORY_MB` (default 1024) MB of JSON Lines into a temporary directory,
 *    documents of about `YARROW_BENCH_DOC_KB` (default 10) KB: real English text, the Debian
 *    package descriptions of ../shared/data drawn at random and joined, with a title, a keyword
 *    and two numbers (the fields of the `debian` bench mapping), so term dictionaries grow as real
 *    text makes them grow.
 * 2. Runs the built executable (`dist/cli.js`, its shebang's V8 flags, default `indexing`) on it
 *    and samples the child's `/proc/<pid>/status` every 200 ms: peak RSS (VmHWM), and RSS at each
 *    tenth of the run, so a figure that grows with the input shows as a rising line.
 *
 * `YARROW_BENCH_MEMORY_FILE=<path>` keeps the generated file at that path and reuses it on the next
 * run. `YARROW_BENCH_NODE_FLAGS="--max-old-space-size=200 ..."` runs `node <flags> dist/cli.js` instead
 * of the executable, to measure V8 settings. Needs `npm run build` first.
 *
 * Run: `npm run build && node --import tsx bench/index-memory.bench.ts`.
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { dataDir, REPO_ROOT } from './corpus.js';
import { writeGeneratedJsonl } from './generated-jsonl.js';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const MB = 1024 * 1024;

const MAPPING = `      _id: { type: id }
      title: { type: text, search: { lexical: { analyze: english } } }
      body: { type: text, search: { lexical: { analyze: english } } }
      section: { type: text, search: false, filter: true, facet: true }
      size: { type: int, filter: true, sort: true }
      year: { type: int, filter: true, sort: true }`;

/** The Debian descriptions and summaries: the text the documents are made of. */
async function loadText(): Promise<{ descriptions: string[]; summaries: string[]; sections: string[] }> {
  const descriptions: string[] = [];
  const summaries: string[] = [];
  const sections = new Set<string>();
  const lines = createInterface({ input: createReadStream(join(dataDir(), 'debian-packages.jsonl.gz')).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    const d = JSON.parse(line) as { description?: unknown; summary?: unknown; section?: unknown };
    if (typeof d.description === 'string' && d.description.length > 40) descriptions.push(d.description);
    if (typeof d.summary === 'string' && d.summary !== '') summaries.push(d.summary);
    if (typeof d.section === 'string') sections.add(d.section);
  }
  return { descriptions, summaries, sections: [...sections] };
}

/** Writes about `megabytes` of JSONL of `docKb`-KB documents; returns the doc count. */
async function generate(path: string, megabytes: number, docKb: number): Promise<number> {
  const { descriptions, summaries, sections } = await loadText();
  let seed = 17;
  const rnd = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const bodyChars = docKb * 1024;
  return writeGeneratedJsonl(path, megabytes, (n) => {
    const parts: string[] = [];
    let length = 0;
    while (length < bodyChars) {
      const d = descriptions[rnd(descriptions.length)];
      parts.push(d);
      length += d.length + 2;
    }
    return {
      _id: `doc-${n}`,
      title: summaries[rnd(summaries.length)],
      body: parts.join('\n\n').slice(0, bodyChars),
      section: sections[rnd(sections.length)],
      size: rnd(1 << 30),
      year: 1990 + rnd(36),
    };
  });
}

/** A `/proc/<pid>/status` figure in bytes (VmRSS, VmHWM), or NaN once the process is gone. */
function statusBytes(pid: number, key: string): number {
  try {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? NaN : Number(m[1]) * 1024;
  } catch {
    return NaN;
  }
}

interface Run {
  readonly seconds: number;
  readonly peakBytes: number;
  readonly samples: readonly { readonly t: number; readonly rss: number }[];
  readonly stderr: string;
}

/** Runs `index file` on `file`, sampling the child's memory. */
async function indexFile(work: string, file: string): Promise<Run> {
  const flags = (process.env.YARROW_BENCH_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
  const args = ['index', 'file', '-c', 'bench.yml', '-i', 'bench', '-u', file];
  // The executable itself (so its shebang's flags apply), with this benchmark's node first on PATH.
  const [command, argv] = flags.length === 0 ? [CLI, args] : [process.execPath, [...flags, CLI, ...args]];
  const started = performance.now();
  const child = spawn(command, argv, {
    cwd: work,
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, YARROW_REPORT_MAX_RSS: '1', NODE_OPTIONS: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
  const samples: { t: number; rss: number }[] = [];
  let peakBytes = 0;
  const pid = child.pid!;
  const timer = setInterval(() => {
    const rss = statusBytes(pid, 'VmRSS');
    const hwm = statusBytes(pid, 'VmHWM');
    if (!Number.isNaN(rss)) samples.push({ t: (performance.now() - started) / 1000, rss });
    if (!Number.isNaN(hwm)) peakBytes = Math.max(peakBytes, hwm);
  }, 200);
  const [code] = (await once(child, 'close')) as [number | null];
  clearInterval(timer);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`yarrow index file exited with ${code}:\n${stderr.split('\n').slice(-10).join('\n')}`);
  // The child's own figure at exit covers any peak between two samples.
  const reported = /max_rss_bytes=(\d+)/.exec(stderr);
  if (reported !== null) peakBytes = Math.max(peakBytes, Number(reported[1]));
  return { seconds, peakBytes, samples, stderr };
}

/** The highest RSS sampled in each tenth of the run. */
function timeline(run: Run): string {
  const tenths = new Array<number>(10).fill(0);
  for (const s of run.samples) {
    const i = Math.min(9, Math.floor((10 * s.t) / run.seconds));
    tenths[i] = Math.max(tenths[i], s.rss);
  }
  return tenths.map((b) => (b / MB).toFixed(0)).join(' ');
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run 'npm run build' first`);
  const megabytes = Number(process.env.YARROW_BENCH_MEMORY_MB ?? 1024);
  const docKb = Number(process.env.YARROW_BENCH_DOC_KB ?? 10);
  const work = await mkdtemp(join(tmpdir(), 'yarrow-bench-memory-'));
  try {
    // YARROW_BENCH_MEMORY_FILE keeps the generated file there (and reuses it) across runs.
    const kept = process.env.YARROW_BENCH_MEMORY_FILE;
    const file = kept ?? join(work, 'docs.jsonl');
    if (kept === undefined || !existsSync(kept)) {
      const generating = performance.now();
      const docs = await generate(file, megabytes, docKb);
      console.log(`generated ${docs} docs of ~${docKb} KB in ${((performance.now() - generating) / 1000).toFixed(0)} s`);
    }
    const size = (await stat(file)).size;
    console.log(`input: ${(size / MB).toFixed(0)} MB of JSONL`);
    await writeFile(join(work, 'bench.yml'), `store: { local: { path: ./data } }\nschema:\n  bench:\n    fields:\n${MAPPING}\n`);
    const run = await indexFile(work, file);
    const done = /indexing done: (\d+) docs/.exec(run.stderr);
    const flags = process.env.YARROW_BENCH_NODE_FLAGS ?? '(shebang flags)';
    console.log(`index file ${flags}: ${done?.[1] ?? '?'} docs in ${run.seconds.toFixed(1)} s (${(size / MB / run.seconds).toFixed(1)} MB/s)`);
    console.log(`  peak RSS (VmHWM) ${(run.peakBytes / MB).toFixed(0)} MB; goal <= 300 MB`);
    console.log(`  RSS by tenth of the run (max MB): ${timeline(run)}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
