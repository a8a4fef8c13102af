/**
 * SQLite FTS5 loaded as `yarrow index file` loads Yarrow: from the same JSON Lines file, by a process
 * of its own, timed over that process's whole run. The runner's documents are written to a file
 * (untimed, as for `yarrow-cli`); then `node` runs sqlite-fts5/load-file.ts (bundled to plain
 * JavaScript before the timed phase): start-up, reading and parsing each line, the inserts into the
 * `sqlite-fts5` engine's table in one transaction, the commit, exit. docs/s, CPU time and peak RSS
 * are that child's, measured as `yarrow-cli`'s are. Queries then run in the runner on the committed
 * database, as `sqlite-fts5`'s do.
 */
import Database from 'better-sqlite3';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { CorpusSpec } from '../corpus.js';
import { REPO_ROOT } from '../corpus.js';
import type { BenchQuery } from '../queries.js';
import type { BenchEngine, CreateEngine } from './bench-engine.js';
import { directoryBytes } from './bench-engine.js';
import { runLoader, writeJsonLines } from './file-load.js';
import { SELECT_TOP10, matchExpression } from './sqlite-fts5.js';

const LOADER_SOURCE = path.join(REPO_ROOT, 'bench', 'engines', 'sqlite-fts5', 'load-file.ts');

/**
 * Bundles the loader into node_modules/.cache/ (inside the repository, so `better-sqlite3` resolves
 * from its node_modules; not linted, not committed) and returns the bundle's path. Written under a
 * temporary name and renamed, so a concurrent bench run never executes a half-written file.
 */
export async function buildLoader(): Promise<string> {
  const out = path.join(REPO_ROOT, 'node_modules', '.cache', 'yarrow-bench', 'sqlite-fts5-load.mjs');
  const tmp = `${out}.${process.pid}.tmp`;
  await mkdir(path.dirname(out), { recursive: true });
  await esbuild.build({
    entryPoints: [LOADER_SOURCE],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    outfile: tmp,
    logLevel: 'warning',
  });
  await rename(tmp, out);
  return out;
}

/** Creates the engine; the database lives in `<dir>/db/bench.db`. */
export const createEngine: CreateEngine = async (corpus: CorpusSpec, dir: string) => {
  const loader = await buildLoader();
  const input = path.join(dir, 'input.jsonl');
  const dbDir = path.join(dir, 'db');
  await mkdir(dbDir);
  const dbFile = path.join(dbDir, 'bench.db');
  let peakRssBytes = 0;
  let cpuMs = 0;
  let writeMs = 0;
  let db: Database.Database | null = null;
  let select: Database.Statement<[string]> | null = null;

  const engine: BenchEngine = {
    name: 'sqlite-fts5-file',
    async index(docs): Promise<void> {
      // Preparation, not indexing: the runner subtracts it (untimedIndexMs).
      writeMs = await writeJsonLines(input, docs);
      const run = await runLoader('sqlite-fts5 loader', [loader, input, dbFile, corpus.textFields.join(',')]);
      const loaded = Number(/^docs=(\d+)$/m.exec(run.stderr)?.[1]);
      if (loaded !== docs.length) throw new Error(`sqlite-fts5 loader inserted ${loaded} docs, the runner has ${docs.length}`);
      peakRssBytes = run.peakRssBytes;
      cpuMs = run.cpuMs;
    },
    commit(): Promise<void> {
      // The loader committed before it exited.
      return Promise.resolve();
    },
    indexBytes(): Promise<number> {
      return directoryBytes(dbDir);
    },
    search(query: BenchQuery): Promise<number> {
      // Opened with the first (warm-up) query: opening it for queries is not indexing.
      if (select === null) {
        db = new Database(dbFile, { readonly: true });
        select = db.prepare<[string]>(SELECT_TOP10);
      }
      return Promise.resolve(select.all(matchExpression(query)).length);
    },
    untimedIndexMs: () => writeMs,
    indexCpuMs: () => cpuMs,
    processStats: () => Promise.resolve({ peakRssBytes, rssAfterLoadBytes: 0 }),
    close(): Promise<void> {
      db?.close();
      return Promise.resolve();
    },
  };
  return engine;
};
