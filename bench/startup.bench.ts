/**
 * Start-up (issue 17): how long a fresh process takes to be useful, against SQLite in the same run.
 *
 * 1. `yarrow --help` against `node -e 0`: best of N wall times of each (goal: at most +100 ms).
 * 2. First answer: the npm corpus (the first YARROW_BENCH_STARTUP_DOCS docs, default 100,000) is
 *    indexed once by `yarrow index file` and once into an FTS5 table (better-sqlite3, the
 *    `sqlite-fts5` bench engine's schema). Then, best of N:
 *    - yarrow: spawn `yarrow search -c ... -p 0`, read the port from its log, send
 *      `GET /npm/_search?q=<term>&size=10` once (node:http, no keep-alive): process start -> the
 *      answer with hits, read by the parent;
 *    - sqlite (the figure, "SQLite's open + first query"): spawn `node` that opens the
 *      database read-only with better-sqlite3, runs the bench's `MATCH ... ORDER BY bm25 LIMIT 10`
 *      once and prints the hits: process start -> that line;
 *    - sqlite over HTTP (like with like for a server): the same, but the child first starts a
 *      node:http server on port 0, logs its address as yarrow does, and the parent sends it the
 *      same GET the same way; the child opens the database and queries on that request.
 *    - node: a child that only prints a line: node's own start-up, the floor of all three.
 *    All children are node processes started the same way (same node, no NODE_OPTIONS, page cache
 *    warm after the first round), so every figure includes node's own start-up; yarrow's get the
 *    node options of the executable's shebang line, as the installed `yarrow` command does.
 *
 * Besides wall times, the CPU time (all threads, from the scheduler's per-thread counters) each
 * child has used when it answers is read from /proc (Linux): on a machine shared with other work
 * wall times move several-fold between runs, CPU time much less. Yarrow's children run with
 * YARROW_STARTUP_TRACE=1, and the bench prints where their time went, step by step.
 *
 * Run: `npm run build && node --import tsx bench/startup.bench.ts`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { CORPORA, NPM_SCHEMA_YAML, REPO_ROOT, loadCorpus, textOf } from './corpus.js';

/** The `yarrow` executable, package.json "bin" (dist/cli.cjs). */
const CLI = path.join(REPO_ROOT, (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { bin: { yarrow: string } }).bin.yarrow);

/**
 * `node <flags> <the executable>`: the node options of the executable's shebang line (V8 heap tuning),
 * so that the child runs as the `yarrow` command does, under the same node as the peers.
 */
function yarrowCommand(): string[] {
  const shebang = readFileSync(CLI, 'utf8').split('\n', 1)[0];
  const flags = /^#!.*\bnode\b(.*)$/.exec(shebang)?.[1].trim().split(/\s+/).filter((f) => f !== '') ?? [];
  return [...flags, CLI];
}
const ROUNDS = Number(process.env.YARROW_BENCH_ROUNDS ?? 7);
const DOCS = Number(process.env.YARROW_BENCH_STARTUP_DOCS ?? 100_000);
const TERM = 'react';

/**
 * CPU ms a live process has used so far, all its threads: the sum of each thread's time on a CPU
 * from /proc/<pid>/task/<tid>/schedstat (nanoseconds), else user + system from /proc/<pid>/stat
 * (clock ticks, 10 ms), or NaN where /proc is missing.
 */
function cpuMsOf(pid: number | undefined): number {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${String(pid)}/task`)) ns += Number(readFileSync(`/proc/${String(pid)}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1e6;
  } catch {
    // No schedstat (a kernel without CONFIG_SCHEDSTATS): the coarser figure.
  }
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, counted after the ") " that ends the command name.
    const fields = readFileSync(`/proc/${String(pid)}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** CPU ms of the children timed with `until`, per label, best (least) of the rounds. */
const cpuBest = new Map<string, number>();

/**
 * Yarrow's start-up steps (YARROW_STARTUP_TRACE=1, src/cli/startup-trace.ts): per step, in the
 * order first seen, the wall and CPU ms since process start of each round that reached it.
 */
const steps = new Map<string, { wall: number[]; cpu: number[]; main: number[] }>();

/** Records a `startup <step> <wall ms> cpu <cpu ms> main <main thread's cpu ms>` line (other lines are not steps). */
function recordStep(line: string): void {
  const m = /^startup (.+) ([\d.]+) cpu ([\d.]+)(?: main ([\d.]+|NaN))?$/.exec(line);
  if (m === null) return;
  const step = steps.get(m[1]) ?? { wall: [], cpu: [], main: [] };
  step.wall.push(Number(m[2]));
  step.cpu.push(Number(m[3]));
  step.main.push(Number(m[4]));
  steps.set(m[1], step);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/** Wall time from spawn to `done(line)` answering true for a stdout/stderr line, or to exit. */
async function timeChild(args: readonly string[], options: { cwd?: string; cpuLabel?: string; env?: Record<string, string>; onLine?: (line: string) => void; until?: (line: string, child: ReturnType<typeof spawn>) => Promise<boolean> | boolean } = {}): Promise<number> {
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '', ...options.env } });
  const exited = once(child, 'exit');
  if (options.until === undefined) {
    child.stdout.resume();
    child.stderr.resume();
    await exited;
    return Number(process.hrtime.bigint() - start) / 1e6;
  }
  const until = options.until;
  const lines = createInterface({ input: child.stderr });
  // Every line, also those logged while `until` waits for an answer.
  if (options.onLine !== undefined) lines.on('line', options.onLine);
  child.stdout.resume();
  try {
    for await (const line of lines) {
      if (await until(line, child)) {
        const wall = Number(process.hrtime.bigint() - start) / 1e6;
        if (options.cpuLabel !== undefined) cpuBest.set(options.cpuLabel, Math.min(cpuBest.get(options.cpuLabel) ?? Infinity, cpuMsOf(child.pid)));
        return wall;
      }
    }
    throw new Error(`child ended before answering: ${args.join(' ')}`);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** GET `url` with node:http (no agent, nothing loaded lazily in this process): status and parsed JSON body. */
function getJson(url: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
    }).on('error', reject);
  });
}

/** An `until` that waits for "listening on <url>" and answers true once `<url><path>` returned hits. */
function firstHttpAnswer(path: string): (line: string) => Promise<boolean> {
  return async (line) => {
    const m = /listening on (http:\/\/[^ ]+)/.exec(line);
    if (m === null) return false;
    const { status, body } = await getJson(`${m[1]}${path}`);
    if (status !== 200 || ((body as { hits?: unknown[] }).hits?.length ?? 0) === 0) throw new Error(`${m[1]}${path} answered ${String(status)}: ${JSON.stringify(body).slice(0, 200)}`);
    return true;
  };
}

async function best(n: number, f: () => Promise<number>): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < n; i++) min = Math.min(min, await f());
  return min;
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} does not exist: run 'npm run build' first`);
  const YARROW = yarrowCommand();
  const dir = await mkdtemp(path.join(tmpdir(), 'yarrow-startup-'));
  try {
    const nodeMs = await best(ROUNDS, () => timeChild(['-e', '0']));
    const helpMs = await best(ROUNDS, () => timeChild([...YARROW, '--help']));

    const docs = (await loadCorpus(CORPORA.npm, DOCS));
    const input = path.join(dir, 'npm.jsonl');
    const out = createWriteStream(input);
    for (const d of docs) if (!out.write(`${JSON.stringify(d)}\n`)) await once(out, 'drain');
    out.end();
    await once(out, 'finish');
    const config = path.join(dir, 'yarrow.yml');
    await writeFile(config, `store:\n  local: { path: ${JSON.stringify(path.join(dir, 'store'))} }\n${NPM_SCHEMA_YAML}`);
    await timeChild([...YARROW, 'index', 'file', '-c', config, '-i', 'npm', '-u', input]);

    const dbPath = path.join(dir, 'npm.db');
    const db = new Database(dbPath);
    db.exec("CREATE VIRTUAL TABLE t USING fts5(name, summary, tokenize='porter unicode61')");
    const insert = db.prepare('INSERT INTO t(rowid, name, summary) VALUES (?, ?, ?)');
    db.transaction(() => { docs.forEach((d, i) => insert.run(i + 1, textOf(d, 'name'), textOf(d, 'summary'))); })();
    db.close();

    const floorMs = await best(ROUNDS, () => timeChild(['-e', "console.error('answered'); setTimeout(() => {}, 10000);"], { cpuLabel: 'node', until: (line) => line.startsWith('answered') }));
    // Traced: each step's line is one small write to stderr (src/cli/startup-trace.ts).
    const answer = firstHttpAnswer(`/npm/_search?q=${TERM}&size=10`);
    const yarrowMs = await best(ROUNDS, () => timeChild([...YARROW, 'search', '-c', config, '-h', '127.0.0.1', '-p', '0'], { cpuLabel: 'yarrow', env: { YARROW_STARTUP_TRACE: '1' }, onLine: recordStep, until: answer }));
    const query = `"SELECT rowid, bm25(t) AS s FROM t WHERE t MATCH ? ORDER BY s LIMIT 10"`;
    const sqliteScript = `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(dbPath)}, { readonly: true });
const rows = db.prepare(${query}).all('"${TERM}"');
if (rows.length === 0) process.exit(1); console.error('answered ' + rows.length);`;
    const sqliteMs = await best(ROUNDS, () => timeChild(['-e', sqliteScript], { cwd: REPO_ROOT, cpuLabel: 'sqlite', until: (line) => line.startsWith('answered') }));
    const sqliteHttpScript = `const http = require('node:http'); const D = require('better-sqlite3');
const server = http.createServer((req, res) => {
  const q = new URL(req.url, 'http://x').searchParams.get('q');
  const db = new D(${JSON.stringify(dbPath)}, { readonly: true });
  const hits = db.prepare(${query}).all('"' + q + '"');
  res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ hits }));
});
server.listen(0, '127.0.0.1', () => console.error('listening on http://127.0.0.1:' + server.address().port));`;
    const sqliteHttpMs = await best(ROUNDS, () => timeChild(['-e', sqliteHttpScript], { cwd: REPO_ROOT, cpuLabel: 'sqlite-http', until: firstHttpAnswer(`/_search?q=${TERM}`) }));

    const rows = [
      ['node -e 0', nodeMs, ''],
      ['yarrow --help', helpMs, `node + ${(helpMs - nodeMs).toFixed(0)} ms (goal <= +100 ms)`],
      [`yarrow search: start -> first answer (${docs.length} docs)`, yarrowMs, `${(yarrowMs / sqliteMs).toFixed(2)}x SQLite (goal <= 1.00x), ${(yarrowMs / sqliteHttpMs).toFixed(2)}x SQLite over HTTP`],
      [`node + better-sqlite3: open -> first answer (${docs.length} docs)`, sqliteMs, ''],
      [`node:http + better-sqlite3: start -> first HTTP answer`, sqliteHttpMs, ''],
      [`node printing one line (the floor)`, floorMs, ''],
    ] as const;
    process.stdout.write(`\nstart-up, best of ${ROUNDS} wall times (ms):\n`);
    for (const [what, ms, note] of rows) process.stdout.write(`${what.padEnd(62)} ${ms.toFixed(0).padStart(6)}  ${note}\n`);
    const cpu = (label: string): number => cpuBest.get(label) ?? NaN;
    process.stdout.write(`\nCPU time (all threads, schedstat) used by the child when it answered, best of ${ROUNDS} (ms):\n`);
    process.stdout.write(`${'yarrow search'.padEnd(62)} ${cpu('yarrow').toFixed(0).padStart(6)}  ${(cpu('yarrow') / cpu('sqlite')).toFixed(2)}x SQLite, ${(cpu('yarrow') / cpu('sqlite-http')).toFixed(2)}x SQLite over HTTP\n`);
    process.stdout.write(`${'node + better-sqlite3'.padEnd(62)} ${cpu('sqlite').toFixed(0).padStart(6)}\n`);
    process.stdout.write(`${'node:http + better-sqlite3'.padEnd(62)} ${cpu('sqlite-http').toFixed(0).padStart(6)}\n`);
    process.stdout.write(`${'node printing one line'.padEnd(62)} ${cpu('node').toFixed(0).padStart(6)}\n`);
    process.stdout.write(`\nyarrow search, each step ends at (ms since process start, median of ${ROUNDS}; the step's own share in brackets; cpu: all threads, main: the event loop's thread):\n`);
    let previous = { wall: 0, cpu: 0, main: 0 };
    for (const [step, { wall, cpu: cpus, main }] of steps) {
      const at = { wall: median(wall), cpu: median(cpus), main: median(main) };
      process.stdout.write(`  ${step.padEnd(38)} wall ${at.wall.toFixed(1).padStart(7)} (+${(at.wall - previous.wall).toFixed(1).padStart(5)})   cpu ${at.cpu.toFixed(1).padStart(7)} (+${(at.cpu - previous.cpu).toFixed(1).padStart(5)})   main ${at.main.toFixed(1).padStart(7)} (+${(at.main - previous.main).toFixed(1).padStart(5)})\n`);
      previous = at;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`startup bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
