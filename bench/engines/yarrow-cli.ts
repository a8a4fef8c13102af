/**
 * Yarrow as a user bulk-loads it: the built executable, `yarrow index file`, in a child process.
 * The runner's documents are first written to a JSON Lines file (untimed); indexing time is the
 * child's whole run (start-up, reading, parsing, indexing, the commit to disk), its peak RSS is the
 * child's own (YARROW_REPORT_MAX_RSS). Queries then run in a searcher child process on the
 * committed index (yarrow/search-child.ts), which times each search itself and answers over a pipe:
 * the same harness as the Xapian peer's, so their latencies compare like with like. Needs
 * `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { stringify } from 'yaml';
import type { CorpusSpec } from '../corpus.js';
import { REPO_ROOT } from '../corpus.js';
import type { BenchQuery } from '../queries.js';
import type { BenchEngine, CreateEngine } from './bench-engine.js';
import { directoryBytes } from './bench-engine.js';
import { MAPPINGS } from './yarrow.js';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const SEARCH_CHILD = path.join(REPO_ROOT, 'bench', 'engines', 'yarrow', 'search-child.ts');
/** The V8 flags of the executable's shebang (src/cli.ts); `node dist/cli.js` would not apply them. */
const SHEBANG_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=25'];
/** The environment the shebang sets (src/cli.ts). */
const SHEBANG_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' };

/** Creates the engine; the index lives in `<dir>/store/<corpus>`. */
export const createEngine: CreateEngine = async (corpus: CorpusSpec, dir: string) => {
  if (!existsSync(CLI)) throw new Error(`${CLI} does not exist: run 'npm run build' first`);
  const input = path.join(dir, 'input.jsonl');
  const store = path.join(dir, 'store');
  const config = path.join(dir, 'yarrow.yml');
  const schema = { _id: { type: 'id' }, ...MAPPINGS[corpus.name].fields };
  await writeFile(config, stringify({ store: { local: { path: store } }, schema: { [corpus.name]: { fields: schema } } }));
  let peakRssBytes = 0;
  let cpuMs = 0;
  let writeMs = 0;
  let searcher: SearchChild | null = null;
  let lastSearchMs = 0;

  const engine: BenchEngine = {
    name: 'yarrow-cli',
    async index(docs): Promise<void> {
      // Preparation, not indexing: the runner subtracts it (untimedIndexMs).
      const writeStart = performance.now();
      const out = createWriteStream(input);
      for (const doc of docs) if (!out.write(`${JSON.stringify(doc)}\n`)) await once(out, 'drain');
      out.end();
      await once(out, 'finish');
      writeMs = performance.now() - writeStart;
      const child = spawn(process.execPath, [...SHEBANG_FLAGS, CLI, 'index', 'file', '-c', config, '-i', corpus.name, '-u', input], {
        env: { ...process.env, ...SHEBANG_ENV, YARROW_REPORT_MAX_RSS: '1', NODE_OPTIONS: '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
      const [code] = (await once(child, 'close')) as [number | null];
      if (code !== 0) throw new Error(`yarrow index file exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
      const rss = /max_rss_bytes=(\d+)/.exec(stderr);
      peakRssBytes = rss === null ? 0 : Number(rss[1]);
      const cpu = /cpu_ms=(\d+)/.exec(stderr);
      cpuMs = cpu === null ? 0 : Number(cpu[1]);
    },
    async commit(): Promise<void> {
      // index file committed before it exited; starting the searcher process opens the index.
      searcher = await startSearchChild(path.join(store, corpus.name), corpus);
    },
    indexBytes(): Promise<number> {
      return directoryBytes(store);
    },
    async search(query: BenchQuery): Promise<number> {
      const answer = await searcher!.call({ op: 'search', terms: query.terms, operator: query.operator });
      lastSearchMs = answer.ms as number;
      return answer.hits as number;
    },
    lastSearchMs: () => lastSearchMs,
    untimedIndexMs: () => writeMs,
    indexCpuMs: () => cpuMs,
    processStats: () => Promise.resolve({ peakRssBytes, rssAfterLoadBytes: 0 }),
    async close(): Promise<void> {
      await searcher?.close();
    },
  };
  return engine;
};

/** A searcher child process: one JSON line per command, one per answer. */
interface SearchChild {
  call(command: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Starts yarrow/search-child.ts with the executable's V8 flags on the committed index in `dir`. */
async function startSearchChild(dir: string, corpus: CorpusSpec): Promise<SearchChild> {
  const args = [...SHEBANG_FLAGS, '--import', 'tsx', SEARCH_CHILD, dir, corpus.name, JSON.stringify(MAPPINGS[corpus.name]), corpus.textFields.join(',')];
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<never>((_, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => { reject(new Error(`yarrow search child exited with code ${code}`)); });
  });
  exited.catch(() => undefined);
  const next = async (): Promise<Record<string, unknown>> => {
    const line = await Promise.race([lines.next(), exited]);
    if (line.done === true) throw new Error('yarrow search child closed its output');
    const answer = JSON.parse(line.value) as Record<string, unknown>;
    if (typeof answer.error === 'string') throw new Error(`yarrow search child: ${answer.error}`);
    return answer;
  };
  await next();
  return {
    call(command) {
      child.stdin.write(`${JSON.stringify(command)}\n`);
      return next();
    },
    async close() {
      child.stdin.write(`${JSON.stringify({ op: 'close' })}\n`);
      await next();
      child.stdin.end();
    },
  };
}
