/**
 * HTTP load benchmark of `yarrow standalone` (autocannon against the built executable on loopback):
 *  1. `_index` throughput: the corpus POSTed as JSONL bodies of ~8 MB, docs/s and MB/s;
 *  2. search queries/s and latency percentiles at a fixed concurrency;
 *  3. the same search load while a second copy of the corpus is being indexed (p99 under writes);
 *  4. issue 17's check: search latency at a fixed, moderate rate (YARROW_HTTP_RATE queries/s, open
 *     loop, from a client in its own worker thread: paced-load.ts, which says why not autocannon)
 *     idle, then while further copies are indexed at full speed in the same process; goal: p99
 *     while indexing within 2x of the idle p99.
 * The server runs as the installed `yarrow` command does: with the node options and environment
 * of the executable's shebang line (see `executableLaunch`).
 * Run with `npm run bench:http` (builds nothing: run `npm run build` first). Knobs: YARROW_BENCH_DATA,
 * YARROW_BENCH_LIMIT (docs), YARROW_HTTP_CONNECTIONS (default 16), YARROW_HTTP_SECONDS (default 10),
 * YARROW_HTTP_RATE (default 100), YARROW_HTTP_PACED_CONNECTIONS (default 4), YARROW_HTTP_SAMPLES
 * (a file the paced runs append their per-query times to), YARROW_BENCH_CORPUS (debian | npm, default debian),
 * YARROW_HTTP_SERVER_ARGS (node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`),
 * YARROW_HTTP_SERVER_STDOUT (a file for the server's standard output, e.g. with `--trace-gc`),
 * YARROW_HTTP_PACED_ONLY=1 (skip 2. and 3.), YARROW_HTTP_CLI (another build's dist/cli.js, e.g.
 * the base branch's, to compare against), YARROW_HTTP_STALLS=1 or =<file to keep the trace in> (trace
 * the server's main-thread stalls with stall-tracer.ts and report them per paced run: how long the
 * event loop itself ran in each gap, which the machine's load moves far less than latency).
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import autocannon from 'autocannon';
import { CORPORA, REPO_ROOT, dataDir, docLimit, isCorpusName } from '../corpus.js';
import { executableLaunch } from '../executable-launch.js';
import { MAPPINGS } from '../engines/yarrow.js';
import { mulberry32 } from '../queries.js';
import { formatPaced, pacedLoad } from './paced-load.js';
import { stallTracerModule } from './stall-tracer.js';
import type { StallGap, StallGc, StallQuery } from './stall-tracer.js';
import type { PacedSamples } from './paced-load.js';

const CLI = process.env.YARROW_HTTP_CLI ?? path.join(REPO_ROOT, 'dist', 'cli.js');
/** Only the fixed-rate check (4.), the quick loop while working on issue 17's latency goal. */
const pacedOnly = process.env.YARROW_HTTP_PACED_ONLY === '1';
const BODY_BYTES = 8 * 1024 * 1024;
/** Copies of the corpus built before the fixed-rate run (more are built during it if it needs them). */
const PREBUILT_COPIES = 10;
const connections = Number(process.env.YARROW_HTTP_CONNECTIONS ?? 16);
const seconds = Number(process.env.YARROW_HTTP_SECONDS ?? 10);
const rate = Number(process.env.YARROW_HTTP_RATE ?? 100);
/** Keep-alive connections of the paced client (a query due while all are busy waits, and that wait counts). */
const pacedConnections = Number(process.env.YARROW_HTTP_PACED_CONNECTIONS ?? 4);
const serverArgs = (process.env.YARROW_HTTP_SERVER_ARGS ?? '').split(' ').filter((a) => a !== '');
const stallsEnv = process.env.YARROW_HTTP_STALLS ?? '';
const traceStalls = stallsEnv !== '' && stallsEnv !== '0';
const corpusName = process.env.YARROW_BENCH_CORPUS ?? 'debian';
if (!isCorpusName(corpusName)) throw new Error(`YARROW_BENCH_CORPUS: unknown corpus ${corpusName}`);
const corpus = CORPORA[corpusName];

async function readLines(limit: number | undefined): Promise<string[]> {
  const lines: string[] = [];
  const rl = createInterface({ input: createReadStream(path.join(dataDir(), corpus.file)).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of rl) {
    if (line.trim() === '') continue;
    lines.push(line);
    if (limit !== undefined && lines.length >= limit) break;
  }
  return lines;
}

/** JSONL bodies of about BODY_BYTES each; `suffix` makes the ids of a second copy distinct. */
function bodies(lines: readonly string[], suffix: string): { body: string; docs: number }[] {
  const out: { body: string; docs: number }[] = [];
  let parts: string[] = [];
  let size = 0;
  for (const line of lines) {
    const doc = suffix === '' ? line : line.replace(/^\{"_id":"([^"]*)"/, (_m, id: string) => `{"_id":"${id}${suffix}"`);
    parts.push(doc);
    size += doc.length + 1;
    if (size >= BODY_BYTES) {
      out.push({ body: `${parts.join('\n')}\n`, docs: parts.length });
      parts = [];
      size = 0;
    }
  }
  if (parts.length > 0) out.push({ body: `${parts.join('\n')}\n`, docs: parts.length });
  return out;
}

function queryBodies(lines: readonly string[], n: number): string[] {
  const rnd = mulberry32(42);
  const out: string[] = [];
  while (out.length < n) {
    const doc = JSON.parse(lines[Math.floor(rnd() * lines.length)]) as { summary?: string; name?: string };
    const words = (doc.summary ?? doc.name ?? '').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 3);
    if (words.length === 0) continue;
    const picked = words.slice(0, 1 + Math.floor(rnd() * Math.min(2, words.length))).join(' ');
    out.push(JSON.stringify({ query: { multi_match: { query: picked, fields: corpus.textFields } }, size: 10, fields: ['name'] }));
  }
  return out;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      srv.close(() => { resolve(port); });
    });
  });
}

/**
 * CPU seconds a process has used so far, on its main thread (the event loop: its tid is the pid),
 * on its other threads at normal priority (nice 0: V8's GC helpers, libuv's pool, a benchmark
 * client) and on its lowered ones (nice > 0: the engine's background threads), from /proc (Linux;
 * null elsewhere). Unlike latency on a shared machine, CPU time does not depend on what else runs
 * there: it shows how much of the indexing work is left on the event loop, and how much competes
 * with it at its own priority.
 */
function threadCpu(pid: number | undefined): { main: number; normal: number; lowered: number; byName: Map<string, number> } | null {
  if (pid === undefined || process.platform !== 'linux') return null;
  const ticksPerSecond = 100;
  const cpu = { main: 0, normal: 0, lowered: 0, byName: new Map<string, number>() };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields 14 and 15 (utime, stime) and 19 (nice), counted from the state (field 3).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const seconds = (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
    if (Number(tid) === pid) cpu.main += seconds;
    else if (Number(fields[16]) > 0) cpu.lowered += seconds;
    else {
      cpu.normal += seconds;
      // By thread (node names none of them: in start order, V8's platform workers come first, then libuv's pool).
      const name = `+${Number(tid) - pid}`;
      cpu.byName.set(name, (cpu.byName.get(name) ?? 0) + seconds);
    }
  }
  return cpu;
}

/** Where the server's stall tracer writes: YARROW_HTTP_STALLS=<file> keeps the trace, =1 writes it in the server's temporary directory. */
const stallFile = (dir: string): string => (stallsEnv === '1' ? path.join(dir, 'stalls.json') : path.resolve(stallsEnv));
/** The monotonic clock in ms, as the stall tracer stamps its records. */
const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
/** The paced runs' windows on the monotonic clock, to split the stall trace by. */
const pacedWindows: { name: string; from: number; to: number; samples?: PacedSamples }[] = [];

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[(sorted.length - 1) >> 1];
};

/**
 * Where the slowest 1% of a paced run's queries spent their time, from the client's times and the
 * server's (matched by query number, both on the monotonic clock): the client's lateness (due to
 * written), the wait until the server's event loop had read the request (loopback plus the loop
 * busy, collecting or waiting for a core), the handler (request read to answer handed to the
 * socket) and the way back (to the client's reading it: the client waiting for a core), with how
 * much of the query's time the event loop spent collecting garbage. Medians over those queries,
 * and over all queries for comparison.
 */
function reportSlowest(name: string, samples: PacedSamples, server: readonly StallQuery[], gcs: readonly StallGc[]): void {
  const seen = new Map<number, StallQuery>();
  const due0 = samples.due[0] + samples.clockOffset;
  // Both runs number their queries from 0: keep the server's records that start in this run.
  const end = samples.ended.reduce((m, t) => Math.max(m, t), 0) + samples.clockOffset;
  for (const q of server) if (q[1] >= due0 - 50 && q[1] <= end && !seen.has(q[0])) seen.set(q[0], q);
  const rows: { latency: number; lag: number; toServer: number; handler: number; back: number; gc: number }[] = [];
  for (let k = 0; k < samples.due.length; k++) {
    const q = seen.get(k);
    if (q === undefined) continue;
    const due = samples.due[k] + samples.clockOffset;
    const sent = samples.sent[k] + samples.clockOffset;
    const ended = samples.ended[k] + samples.clockOffset;
    let gc = 0;
    for (const [start, ms] of gcs) gc += Math.max(0, Math.min(start + ms, ended) - Math.max(start, due));
    rows.push({ latency: ended - due, lag: sent - due, toServer: q[1] - sent, handler: q[2] - q[1], back: ended - q[2], gc });
  }
  if (rows.length === 0) return;
  rows.sort((a, b) => b.latency - a.latency);
  const slow = rows.slice(0, Math.max(1, Math.ceil(rows.length / 100)));
  const line = (rs: typeof rows): string => (['latency', 'lag', 'toServer', 'handler', 'back', 'gc'] as const).map((f) => `${f} ${median(rs.map((r) => r[f])).toFixed(2)}`).join(', ');
  console.log(`queries ${name} (${rows.length} matched): slowest 1% (${slow.length}, medians, ms): ${line(slow)}; all: ${line(rows)}`);
  const sum = (rs: typeof rows, f: 'lag' | 'toServer' | 'handler' | 'back' | 'gc'): number => rs.reduce((s, r) => s + r[f], 0);
  const total = sum(slow, 'lag') + sum(slow, 'toServer') + sum(slow, 'handler') + sum(slow, 'back');
  console.log(`  slowest 1%, shares of their time: client lag ${(100 * sum(slow, 'lag') / total).toFixed(0)}%, to the server's event loop ${(100 * sum(slow, 'toServer') / total).toFixed(0)}%, handler ${(100 * sum(slow, 'handler') / total).toFixed(0)}%, back to the client ${(100 * sum(slow, 'back') / total).toFixed(0)}%; the event loop collecting during them ${(100 * sum(slow, 'gc') / total).toFixed(0)}%`);
}

/**
 * The server's main-thread stalls (stall-tracer.ts) in each paced run: gaps of its 2 ms timer
 * over 5 ms, how many of them the event loop itself ran for at least 5, 10 and 20 ms (its own work,
 * not the machine's load), the CPU it ran in those, and its garbage collections.
 */
function reportStalls(file: string): void {
  if (!existsSync(file)) {
    console.log(`stall trace: ${file} was not written`);
    return;
  }
  const trace = JSON.parse(readFileSync(file, 'utf8')) as { gaps: StallGap[]; gcs: StallGc[]; queries?: StallQuery[] };
  for (const w of pacedWindows) {
    const gaps = trace.gaps.filter(([start]) => start >= w.from && start < w.to);
    const ran = (min: number): StallGap[] => gaps.filter((g) => g[2] >= min);
    const ranSum = ran(5).reduce((s, g) => s + g[2], 0);
    const maxRan = gaps.reduce((m, g) => Math.max(m, g[2]), 0);
    const maxWall = gaps.reduce((m, g) => Math.max(m, g[1]), 0);
    const gcs = trace.gcs.filter(([start]) => start >= w.from && start < w.to);
    const gcKinds = new Map<number, { n: number; ms: number; max: number }>();
    for (const [, ms, kind] of gcs) {
      const k = gcKinds.get(kind) ?? { n: 0, ms: 0, max: 0 };
      gcKinds.set(kind, { n: k.n + 1, ms: k.ms + ms, max: Math.max(k.max, ms) });
    }
    const kindName = (k: number): string => ({ 1: 'scavenge', 2: 'minor-mc', 4: 'mark-compact', 8: 'incremental', 16: 'weak-cb' })[k] ?? `kind ${k}`;
    const gcText = [...gcKinds].map(([k, v]) => `${kindName(k)} ${v.n} (${v.ms.toFixed(0)} ms, max ${v.max.toFixed(1)})`).join(', ');
    console.log(`stalls ${w.name} (${((w.to - w.from) / 1000).toFixed(1)} s): ${gaps.length} gaps > 5 ms (max ${maxWall.toFixed(0)} ms wall); event loop ran >= 5 / 10 / 20 ms in ${ran(5).length} / ${ran(10).length} / ${ran(20).length} (${ranSum.toFixed(0)} ms, max ${maxRan.toFixed(1)} ms); main-thread GC: ${gcText || 'none'}`);
    if (w.samples !== undefined && trace.queries !== undefined) reportSlowest(w.name, w.samples, trace.queries, gcs);
  }
}

/** A process's resident set now, in MB (Linux; undefined elsewhere). */
function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
}

/** Bytes of the files under `dir`, write-ahead logs left out (the server does not hold them). */
function directorySize(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !/^wal-.*\.log$/.test(entry.name)) bytes += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return bytes;
}

async function startServer(dir: string): Promise<{ url: string; pid: number | undefined; stop: () => Promise<number | null> }> {
  const config = { store: { local: { path: path.join(dir, 'data') } }, schema: { [corpus.name]: MAPPINGS[corpus.name] } };
  await writeFile(path.join(dir, 'conf.yml'), JSON.stringify(config));
  const port = await freePort();
  const stdoutFile = process.env.YARROW_HTTP_SERVER_STDOUT;
  const stdout = stdoutFile === undefined || stdoutFile === '' ? 'ignore' : openSync(stdoutFile, 'w');
  const launch = executableLaunch(CLI);
  const tracer: string[] = [];
  if (traceStalls) {
    const module = path.join(dir, 'stall-tracer.mjs');
    await writeFile(module, stallTracerModule(stallFile(dir)));
    tracer.push('--import', pathToFileURL(module).href);
  }
  const child = spawn(process.execPath, [...launch.flags, ...serverArgs, ...tracer, CLI, 'standalone', '-c', path.join(dir, 'conf.yml'), '-p', String(port), '-h', '127.0.0.1', '-l', 'warn'], {
    env: { ...process.env, ...launch.env, YARROW_BODY_LIMIT: String(64 * 1024 * 1024), YARROW_LOG_FORMAT: '' },
    stdio: ['ignore', stdout, 'pipe'],
  });
  if (child.stderr === null) throw new Error('the server has no stderr pipe');
  child.stderr.setEncoding('utf8');
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let log = '';
  child.stderr.on('data', (s: string) => { log += s; process.stderr.write(s); });
  void exited.then((c) => { if (c !== 0) process.stderr.write(`server exited with ${String(c)}\n`); });
  const url = `http://127.0.0.1:${port}`;
  // At -l warn the listening line is not logged (request lines would cost throughput): poll /_health.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ok = await fetch(`${url}/_health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, pid: child.pid, stop: async () => { child.kill('SIGTERM'); return exited; } };
}

/** Keep-alive connections of the indexing client. */
const pushAgent = new Agent({ keepAlive: true });

/**
 * One `_index` POST of `body` with node:http: the body goes to the socket in one write, so the
 * bench's own CPU per body is a few syscalls. (`fetch` streamed it through undici's web streams:
 * ~30 ms of this process's CPU per 8 MB body, on the 2 cores the server and the paced client
 * share; see bench/README.md.)
 */
function postBody(url: string, body: string | Buffer): Promise<void> {
  const target = new URL(`${url}/${corpus.name}/_index`);
  return new Promise((resolve, reject) => {
    const req = request({
      agent: pushAgent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode === 200) resolve();
        else reject(new Error(`_index answered ${res.statusCode}: ${Buffer.concat(chunks).toString()}`));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function indexAll(url: string, list: readonly { body: string | Buffer; docs: number }[], parallel: number): Promise<{ docs: number; bytes: number; seconds: number }> {
  const started = performance.now();
  let next = 0;
  let docs = 0;
  let bytes = 0;
  const worker = async (): Promise<void> => {
    while (next < list.length) {
      const b = list[next++];
      await postBody(url, b.body);
      docs += b.docs;
      bytes += Buffer.byteLength(b.body);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return { docs, bytes, seconds: (performance.now() - started) / 1000 };
}

/** Search load for `duration` seconds: `connections` clients as fast as they can, or at `overallRate` queries/s in all. */
async function searchLoad(url: string, queries: readonly string[], duration: number, paced?: { connections: number; overallRate: number }): Promise<autocannon.Result> {
  let i = 0;
  return autocannon({
    url: `${url}/${corpus.name}/_search`,
    connections: paced?.connections ?? connections,
    ...(paced === undefined ? {} : { overallRate: paced.overallRate }),
    duration,
    requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: queries[i++ % queries.length] }) }],
  });
}

/**
 * Issue 17's check: latency at a fixed rate, idle and while the server indexes further copies of
 * the corpus at full speed (one client posting back to back, as `_index` throughput was measured)
 * until the search run ends, so every query it times overlaps indexing.
 */
async function pacedLatency(url: string, pid: number | undefined, queries: readonly string[], lines: readonly string[], dataDir: string): Promise<void> {
  const paced = { url: `${url}/${corpus.name}/_search`, queries, rate, seconds, connections: pacedConnections };
  // The copies indexed during the timed run, built and encoded beforehand: building one (a regex per
  // line, a 17 MB join and its UTF-8 encoding) blocks this thread for tens of milliseconds (the
  // paced client has its own thread now, but the indexing stream should not pause either).
  const ready = Array.from({ length: PREBUILT_COPIES }, (_, i) => bodies(lines, `~${i + 3}`).map((b) => ({ body: Buffer.from(b.body), docs: b.docs })));
  const idleCpu = threadCpu(pid);
  const idleFrom = monotonicMs();
  const idle = await pacedLoad(paced);
  pacedWindows.push({ name: 'idle', from: idleFrom, to: monotonicMs(), samples: idle.samples });
  const busyCpu = threadCpu(pid);
  console.log(`search at ${rate} q/s (idle): ${formatPaced(idle, seconds)}`);
  const benchBefore = threadCpu(process.pid);
  const rssBefore = rssMb(pid);
  const busyFrom = monotonicMs();
  const during = pacedLoad(paced);
  const started = performance.now();
  let indexed = 0;
  // Copies with fresh ids until the search run ends, so no timed query falls after indexing stopped.
  let searching = true;
  void during.then(() => { searching = false; }, () => { searching = false; });
  for (let copy = 3; searching; copy++) indexed += (await indexAll(url, ready[copy - 3] ?? bodies(lines, `~${copy}`), 1)).docs;
  const busy = await during;
  pacedWindows.push({ name: 'while indexing', from: busyFrom, to: monotonicMs(), samples: busy.samples });
  const indexSeconds = (performance.now() - started) / 1000;
  const endCpu = threadCpu(pid);
  const benchAfter = threadCpu(process.pid);
  console.log(`search at ${rate} q/s while indexing: ${formatPaced(busy, seconds)}`);
  console.log(`  indexing meanwhile: ${indexed} docs in ${indexSeconds.toFixed(1)} s = ${Math.round(indexed / indexSeconds)} docs/s`);
  if (idleCpu !== null && busyCpu !== null && endCpu !== null && benchBefore !== null && benchAfter !== null) {
    // The event loop's CPU while indexing, less what the queries answered meanwhile cost it at the
    // idle run's rate, is what indexing left on it.
    const searchMain = busyCpu.main - idleCpu.main;
    const main = endCpu.main - busyCpu.main;
    const indexingMain = main - (searchMain / Math.max(idle.queries, 1)) * busy.queries;
    const perK = (s: number): string => ((1000 * s) / Math.max(indexed, 1) * 1000).toFixed(1);
    const normal = endCpu.normal - busyCpu.normal;
    const lowered = endCpu.lowered - busyCpu.lowered;
    console.log(`  server CPU: main thread ${searchMain.toFixed(2)} s idle run, ${main.toFixed(2)} s indexing run (indexing's share ${perK(indexingMain)} ms per 1k docs); other threads at normal priority ${normal.toFixed(2)} s (${perK(normal)} ms per 1k docs), lowered ${lowered.toFixed(2)} s (${perK(lowered)} ms per 1k docs)`);
    const names = [...endCpu.byName].map(([name, s]) => [name, s - (busyCpu.byName.get(name) ?? 0)] as const).filter(([, s]) => s > 0.005);
    console.log(`  normal-priority threads (tid - pid): ${names.map(([name, s]) => `${name} ${s.toFixed(2)} s`).join(', ')}`);
    console.log(`  bench CPU while indexing: main thread (posting) ${(benchAfter.main - benchBefore.main).toFixed(2)} s, other threads (the paced client, GC helpers) ${(benchAfter.normal + benchAfter.lowered - benchBefore.normal - benchBefore.lowered).toFixed(2)} s`);
  }
  if (pid !== undefined && process.platform === 'linux') {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    // The server holds its segments in memory (SegmentLoad.full), so its RSS grows with the index
    // whatever indexing itself takes: the index's size on disk at the end says how much of the peak that is.
    const indexBytes = directorySize(dataDir);
    if (hwm !== undefined) console.log(`  server peak RSS so far: ${Math.round(Number(hwm) / 1024)} MB (RSS before the indexing run ${rssBefore ?? '?'} MB; index on disk now (logs left out) ${Math.round(indexBytes / 2 ** 20)} MB, ${indexed} docs indexed in the run)`);
  }
  const ratio = busy.latency.p99 / idle.latency.p99;
  console.log(`  p99 while indexing / idle p99 = ${ratio.toFixed(2)} (goal <= 2.00: ${ratio <= 2 ? 'met' : 'NOT met'})`);
}

const fmt = (r: autocannon.Result): string =>
  `${Math.round(r.requests.average)} q/s, latency p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms (${r.non2xx} non-2xx, ${r.errors} errors)`;

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run 'npm run build' first`);
  const lines = await readLines(docLimit());
  const first = bodies(lines, '');
  const second = bodies(lines, '~2');
  const queries = queryBodies(lines, 500);
  const dir = await mkdtemp(path.join(tmpdir(), 'yarrow-http-bench-'));
  const server = await startServer(dir);
  try {
    console.log(`corpus ${corpus.name}: ${lines.length} docs, ${first.length} bodies of ~${BODY_BYTES >> 20} MB; ${connections} connections, ${seconds} s per search run; server pid ${server.pid ?? '?'}, bench pid ${process.pid}`);
    const ix = await indexAll(server.url, first, 2);
    console.log(`_index: ${ix.docs} docs, ${(ix.bytes / 1e6).toFixed(1)} MB in ${ix.seconds.toFixed(2)} s = ${Math.round(ix.docs / ix.seconds)} docs/s, ${(ix.bytes / 1e6 / ix.seconds).toFixed(1)} MB/s (2 clients)`);
    const flush = await fetch(`${server.url}/${corpus.name}/_flush`, { method: 'POST' });
    if (flush.status !== 200) throw new Error(`_flush answered ${flush.status}`);
    await searchLoad(server.url, queries, 2); // warm-up
    if (pacedOnly) {
      await pacedLatency(server.url, server.pid, queries, lines, path.join(dir, 'data'));
      return;
    }
    const idle = await searchLoad(server.url, queries, seconds);
    console.log(`search (idle): ${fmt(idle)}`);
    const during = searchLoad(server.url, queries, seconds);
    const ix2 = await indexAll(server.url, second, 1);
    const busy = await during;
    console.log(`search while indexing: ${fmt(busy)}`);
    console.log(`_index during search load: ${Math.round(ix2.docs / ix2.seconds)} docs/s, ${(ix2.bytes / 1e6 / ix2.seconds).toFixed(1)} MB/s (${ix2.seconds.toFixed(2)} s of the ${seconds} s search run)`);
    await pacedLatency(server.url, server.pid, queries, lines, path.join(dir, 'data'));
  } finally {
    pushAgent.destroy();
    const code = await server.stop();
    console.log(`server exited with ${String(code)}`);
    if (traceStalls) reportStalls(stallFile(dir));
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
