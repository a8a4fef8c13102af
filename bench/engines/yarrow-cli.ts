/**
 * Yarrow as a user bulk-loads it: the built executable, `yarrow index file`, in a child process.
 * The runner's documents are first written to a JSON Lines file (untimed); indexing time is the
 * child's whole run (start-up, reading, parsing, indexing, the commit to disk), its peak RSS and CPU
 * time are the child's own (YARROW_REPORT_MAX_RSS). The mapping is the like-for-like one
 * (TEXT_MAPPINGS: `_id` and the searched fields, what the peers index); `yarrow-cli-full` runs the
 * same with the full mapping (yarrow-cli-full.ts). Queries then run in a searcher child process on
 * the committed index (yarrow/search-child.ts), which times each search itself and answers over a
 * pipe: the same harness as the Xapian peer's, so their latencies compare like with like. The
 * searcher starts with the first (warm-up) query, so opening it is not counted as indexing. Needs
 * `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { stringify } from 'yaml';
import type { CorpusName, CorpusSpec } from '../corpus.js';
import { REPO_ROOT } from '../corpus.js';
import { executableLaunch } from '../executable-launch.js';
import type { BenchQuery } from '../queries.js';
import type { BenchEngine, CreateEngine, EngineName } from './bench-engine.js';
import { directoryBytes } from './bench-engine.js';
import { runLoader, writeJsonLines } from './file-load.js';
import type { BenchMapping } from './yarrow.js';
import { TEXT_MAPPINGS } from './yarrow.js';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const SEARCH_CHILD = path.join(REPO_ROOT, 'bench', 'engines', 'yarrow', 'search-child.ts');
/** The executable's shebang: `node dist/cli.js` would not apply it, so the children here are started with it. */
const SHEBANG = executableLaunch(CLI);
const SHEBANG_FLAGS = SHEBANG.flags;
const SHEBANG_ENV = SHEBANG.env;

/** The like-for-like engine: `yarrow index file` with `_id` and the searched fields only. */
export const createEngine: CreateEngine = cliEngine('yarrow-cli', TEXT_MAPPINGS);

/**
 * An engine that bulk-loads with `yarrow index file` under `mappings`; the index lives in
 * `<dir>/store/<corpus>`.
 */
export function cliEngine(name: EngineName, mappings: Readonly<Record<CorpusName, BenchMapping>>): CreateEngine {
  return async (corpus: CorpusSpec, dir: string) => {
    if (!existsSync(CLI)) throw new Error(`${CLI} does not exist: run 'npm run build' first`);
    const mapping = mappings[corpus.name];
    const input = path.join(dir, 'input.jsonl');
    const store = path.join(dir, 'store');
    const config = path.join(dir, 'yarrow.yml');
    const schema = { _id: { type: 'id' }, ...mapping.fields };
    await writeFile(config, stringify({ store: { local: { path: store } }, schema: { [corpus.name]: { fields: schema } } }));
    let peakRssBytes = 0;
    let cpuMs = 0;
    let writeMs = 0;
    let searcher: Promise<SearchChild> | null = null;
    let lastSearchMs = 0;

    const engine: BenchEngine = {
      name,
      async index(docs): Promise<void> {
        // Preparation, not indexing: the runner subtracts it (untimedIndexMs).
        writeMs = await writeJsonLines(input, docs);
        const run = await runLoader('yarrow index file', [...SHEBANG_FLAGS, CLI, 'index', 'file', '-c', config, '-i', corpus.name, '-u', input], {
          ...SHEBANG_ENV,
          YARROW_REPORT_MAX_RSS: '1',
        });
        peakRssBytes = run.peakRssBytes;
        cpuMs = run.cpuMs;
      },
      commit(): Promise<void> {
        // index file committed to disk before it exited.
        return Promise.resolve();
      },
      indexBytes(): Promise<number> {
        return directoryBytes(store);
      },
      async search(query: BenchQuery): Promise<number> {
        searcher ??= startSearchChild(path.join(store, corpus.name), corpus, mapping);
        const answer = await (await searcher).call({ op: 'search', terms: query.terms, operator: query.operator });
        lastSearchMs = answer.ms as number;
        return answer.hits as number;
      },
      lastSearchMs: () => lastSearchMs,
      untimedIndexMs: () => writeMs,
      indexCpuMs: () => cpuMs,
      processStats: () => Promise.resolve({ peakRssBytes, rssAfterLoadBytes: 0 }),
      async close(): Promise<void> {
        if (searcher !== null) await (await searcher).close();
      },
    };
    return engine;
  };
}

/** A searcher child process: one JSON line per command, one per answer. */
interface SearchChild {
  call(command: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Starts yarrow/search-child.ts with the executable's V8 flags on the committed index in `dir`. */
async function startSearchChild(dir: string, corpus: CorpusSpec, mapping: BenchMapping): Promise<SearchChild> {
  const args = [...SHEBANG_FLAGS, '--import', 'tsx', SEARCH_CHILD, dir, corpus.name, JSON.stringify(mapping), corpus.textFields.join(',')];
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
