/**
 * Measures what a V8 user-land start-up snapshot would save `yarrow search` (issue 17), without
 * shipping one: builds a snapshot of the built CLI's vendored packages and modes file with the
 * search mode's module bodies run (`node --snapshot-blob <blob> --build-snapshot <entry>`, under
 * the shebang's V8 flags, which a blob must match), then alternates, N rounds each, a start of
 * `node dist/cli.js search` and a start from the blob, and prints the CPU (all threads, schedstat)
 * and wall time each child had used when its first answer arrived, as medians.
 *
 * The snapshot's main function calls runMode with a fixed `search` invocation (it skips commander),
 * so the saving it shows is an upper bound. Findings on Node 20 (docs/performance.md, "Fourth
 * pass"): node:http cannot load in the snapshot builder, so http, https, http2, net and tls are
 * proxies there, and fastify's load-time read of http.STATUS_CODES and METHODS gets a copy; a blob
 * made by another node or under other V8 flags is a fatal error at start, not ignored.
 *
 * Run: `npm run build && node --import tsx scripts/startup-snapshot-probe.ts <config.yml> <index> <query> [rounds]`,
 * on an index built before (e.g. the 100k npm docs of bench/startup.bench.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { METHODS, STATUS_CODES, get } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
if (process.argv.length < 5) throw new Error('usage: startup-snapshot-probe.ts <config.yml> <index> <query> [rounds]');
const [config, index, query] = process.argv.slice(2);
const rounds = process.argv.length > 5 ? Number(process.argv[5]) : 7;

/** The node options of dist/cli.js's shebang line: the blob must be built and run under the same V8 flags. */
const flags = /^#!.*\bnode\b(.*)$/.exec(readFileSync(join(dist, 'cli.js'), 'utf8').split('\n', 1)[0])?.[1].trim().split(/\s+/).filter((f) => f !== '') ?? [];

/**
 * The snapshot builder's entry (CommonJS, run by node's snapshot builder, whose `require` reaches
 * built-ins only): evaluates each bundled file with a `require` that proxies the built-ins the
 * builder cannot load, makes the modes file's loadVendored answer from what it evaluated, runs the
 * search mode's module bodies, and sets the main function a start from the blob runs.
 */
const ENTRY = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const dist = process.env.PROBE_DIST;
const HTTP_CONSTS = JSON.parse(process.env.PROBE_HTTP_CONSTS);
const PROXIED = new Set(['http', 'https', 'http2', 'net', 'tls'].flatMap((m) => [m, 'node:' + m]));
let realRequire = require;
let building = true;
const proxies = new Map();
const req = (id) => {
  if (!PROXIED.has(id)) return realRequire(id);
  if (!proxies.has(id)) {
    let real;
    const load = () => (real ??= realRequire(id));
    const constant = (k) => building && id.endsWith('http') && (k === 'STATUS_CODES' || k === 'METHODS');
    proxies.set(id, new Proxy(function () {}, {
      get: (_, k) => (constant(k) ? HTTP_CONSTS[k] : load()[k]),
      has: (_, k) => k in load(),
      apply: (_, self, args) => load().apply(self, args),
      construct: (_, args) => new (load())(...args),
    }));
  }
  return proxies.get(id);
};
const evaluated = new Map();
globalThis[Symbol.for('yarrow.snapshotProbe')] = evaluated;
function evaluate(file, extra) {
  const full = path.join(dist, file);
  const source = fs.readFileSync(full, 'utf8').replace(/function loadVendored\(file(, \w+)?\) \{/, (m) => m + ' const fromSnapshot = globalThis[Symbol.for("yarrow.snapshotProbe")].get(file); if (fromSnapshot !== undefined) return fromSnapshot;');
  const fn = (0, eval)('(function (exports, require, module, __filename, __dirname) {' + source + '\n' + extra + '\n})');
  const mod = { exports: {} };
  fn.call(mod.exports, mod.exports, req, mod, full, dist);
  evaluated.set(file, mod.exports);
  return mod.exports;
}
for (const f of fs.readdirSync(dist)) if (f.startsWith('cli-vendor-')) evaluate(f, '');
const modes = evaluate(fs.readdirSync(dist).find((f) => /^cli-modes-[0-9a-f]+\.cjs$/.test(f)), 'module.exports.__warm = () => { init_cli_logger(); init_search_mode(); };');
modes.__warm();
building = false;
v8.startupSnapshot.setDeserializeMainFunction(() => {
  realRequire = require('node:module').createRequire(path.join(dist, 'cli.js'));
  const aborted = new AbortController();
  process.on('SIGTERM', () => aborted.abort());
  const io = { stdout: process.stdout, stderr: process.stderr, env: process.env, signal: aborted.signal };
  modes.runMode({ mode: 'search', options: { config: process.argv[1], host: '127.0.0.1', port: 0, loglevel: 'info' } }, io).then((code) => process.exit(code));
});
`;

/** CPU ms of a live process, all threads (schedstat, nanoseconds). */
function cpuMs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${String(pid)}/task`)) ns += Number(readFileSync(`/proc/${String(pid)}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  return ns / 1e6;
}

/** Starts `node args`, waits for "listening on <url>", GETs the query once: wall and CPU ms at the answer. */
async function firstAnswer(args: readonly string[]): Promise<{ wall: number; cpu: number }> {
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
  const exited = once(child, 'exit');
  try {
    for await (const line of createInterface({ input: child.stderr })) {
      const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (url === undefined) continue;
      const body = await new Promise<string>((resolve, reject) => {
        get(`${url}/${index}/_search?q=${encodeURIComponent(query)}&size=10`, { agent: false }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (s: string) => { text += s; }).on('end', () => { resolve(text); });
        }).on('error', reject);
      });
      const wall = Number(process.hrtime.bigint() - start) / 1e6;
      const cpu = cpuMs(child.pid!);
      if (((JSON.parse(body) as { hits?: unknown[] }).hits?.length ?? 0) === 0) throw new Error(`no hits: ${body.slice(0, 200)}`);
      return { wall, cpu };
    }
    throw new Error(`the child ended before listening: ${args.join(' ')}`);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const work = mkdtempSync(join(tmpdir(), 'yarrow-snapshot-probe-'));
try {
  const entry = join(work, 'entry.cjs');
  const blob = join(work, 'search.blob');
  writeFileSync(entry, ENTRY);
  const built = spawnSync(process.execPath, [...flags, '--snapshot-blob', blob, '--build-snapshot', entry], {
    env: { ...process.env, NODE_OPTIONS: '', NODE_NO_WARNINGS: '1', PROBE_DIST: dist, PROBE_HTTP_CONSTS: JSON.stringify({ STATUS_CODES, METHODS }) },
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`building the snapshot failed:\n${built.stderr}`);
  const plain = [...flags, join(dist, 'cli.js'), 'search', '-c', config, '-h', '127.0.0.1', '-p', '0'];
  const fromBlob = [...flags, '--snapshot-blob', blob, config];
  // One start of each first: the code caches of the plain start are written by its first run.
  await firstAnswer(plain);
  await firstAnswer(fromBlob);
  const results = { plain: [] as { wall: number; cpu: number }[], snapshot: [] as { wall: number; cpu: number }[] };
  for (let i = 0; i < rounds; i++) {
    results.plain.push(await firstAnswer(plain));
    results.snapshot.push(await firstAnswer(fromBlob));
  }
  const blobMb = readFileSync(blob).length / 1e6;
  process.stdout.write(`snapshot blob ${blobMb.toFixed(1)} MB; medians of ${String(rounds)} alternating starts, process start -> first answer:\n`);
  for (const [name, rs] of Object.entries(results)) {
    process.stdout.write(`${name.padEnd(10)} cpu ${median(rs.map((r) => r.cpu)).toFixed(1).padStart(7)} ms  wall ${median(rs.map((r) => r.wall)).toFixed(1).padStart(7)} ms\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
