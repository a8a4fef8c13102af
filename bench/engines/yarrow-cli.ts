/**
 * Yarrow as a user bulk-loads it: the built executable, `yarrow index file`, in a child process.
 * The runner's documents are first written to a JSON Lines file (untimed); indexing time is the
 * child's whole run (start-up, reading, parsing, indexing, the commit to disk), its peak RSS is the
 * child's own (YARROW_REPORT_MAX_RSS), and queries then run in the runner on the committed index,
 * as the `yarrow` engine runs them. Needs `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { Index, LocalDirectory } from '../../src/index.js';
import type { CorpusSpec } from '../corpus.js';
import { REPO_ROOT } from '../corpus.js';
import type { BenchQuery } from '../queries.js';
import type { BenchEngine, CreateEngine } from './bench-engine.js';
import { directoryBytes } from './bench-engine.js';
import { MAPPINGS } from './yarrow.js';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
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
  let index: Index | null = null;
  const fields = [...corpus.textFields];

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
      // index file committed before it exited; opening the index is the searcher's start.
      index = await Index.open(await LocalDirectory.open(path.join(store, corpus.name)), { name: corpus.name, mapping: MAPPINGS[corpus.name], refreshIntervalMs: 0 });
    },
    indexBytes(): Promise<number> {
      return directoryBytes(store);
    },
    async search(query: BenchQuery): Promise<number> {
      const res = await Promise.resolve(index!.search({
        query: { multi_match: { query: query.terms.join(' '), fields, operator: query.operator } },
        size: 10,
        track_total_hits: false,
        fields: ['_id'],
      }));
      return res.hits.length;
    },
    untimedIndexMs: () => writeMs,
    indexCpuMs: () => cpuMs,
    processStats: () => Promise.resolve({ peakRssBytes, rssAfterLoadBytes: 0 }),
    async close(): Promise<void> {
      await index?.close();
    },
  };
  return engine;
};
