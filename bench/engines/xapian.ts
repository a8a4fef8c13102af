/**
 * Xapian peer (Debian's `python3-xapian`, C++ under a thin Python binding) behind a child process:
 * bench/engines/xapian/xapian-child.py parses the corpus itself and answers one JSON line per
 * command on a pipe. Index, commit and query times are measured inside the child, so neither the
 * pipe nor Python's start-up counts against Xapian; its peak RSS is the child's own.
 * Install: `apt-get install python3-xapian` (the child runs /usr/bin/python3, where apt puts it).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CorpusSpec } from '../corpus.js';
import { dataDir, docLimit } from '../corpus.js';
import type { BenchQuery } from '../queries.js';
import type { BenchEngine, CreateEngine } from './bench-engine.js';
import { directoryBytes } from './bench-engine.js';

const CHILD = fileURLToPath(new URL('./xapian/xapian-child.py', import.meta.url));
const PYTHON = process.env.YARROW_BENCH_PYTHON ?? '/usr/bin/python3';

/** Creates the Xapian engine with its database in `dir`. */
export const createEngine: CreateEngine = async (corpus: CorpusSpec, dir: string) => {
  const limit = docLimit();
  const db = path.join(dir, 'xapian');
  const child = spawn(PYTHON, [CHILD, path.join(dataDir(), corpus.file), limit === undefined ? '-' : String(limit), corpus.textFields.join(','), db], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<never>((_, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => { reject(new Error(`xapian child exited with code ${code} (is python3-xapian installed? apt-get install python3-xapian)`)); });
  });
  exited.catch(() => undefined);
  const next = async (): Promise<Record<string, unknown>> => {
    const line = await Promise.race([lines.next(), exited]);
    if (line.done === true) throw new Error('xapian child closed its output');
    const answer = JSON.parse(line.value) as Record<string, unknown>;
    if (typeof answer.error === 'string') throw new Error(`xapian child: ${answer.error}`);
    return answer;
  };
  const call = (command: Record<string, unknown>): Promise<Record<string, unknown>> => {
    child.stdin.write(`${JSON.stringify(command)}\n`);
    return next();
  };
  const ready = await next();
  let lastSearchMs = 0;
  let indexCpuMs = 0;

  const engine: BenchEngine = {
    name: 'xapian',
    async index(docs): Promise<void> {
      // The child indexes its own copy of the corpus: check it is the same set of documents.
      if (ready.docs !== docs.length) throw new Error(`xapian child loaded ${String(ready.docs)} docs, the runner ${docs.length}`);
      indexCpuMs = (await call({ op: 'index' })).cpuMs as number;
    },
    async commit(): Promise<void> {
      indexCpuMs += (await call({ op: 'commit' })).cpuMs as number;
    },
    indexBytes(): Promise<number> {
      return directoryBytes(dir);
    },
    async search(query: BenchQuery): Promise<number> {
      const answer = await call({ op: 'search', terms: query.terms, operator: query.operator });
      lastSearchMs = answer.ms as number;
      return answer.hits as number;
    },
    lastSearchMs: () => lastSearchMs,
    indexCpuMs: () => indexCpuMs,
    async processStats() {
      const answer = await call({ op: 'stats' });
      return { peakRssBytes: answer.peakRssBytes as number, rssAfterLoadBytes: answer.rssAfterLoadBytes as number };
    },
    async close(): Promise<void> {
      await call({ op: 'close' });
      child.stdin.end();
    },
  };
  return engine;
};
