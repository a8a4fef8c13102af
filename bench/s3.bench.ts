/**
 * The distributed mode on a real S3-compatible server (moto on loopback), with the built executable:
 *  1. an `api` writer indexes the corpus and flushes: bytes uploaded by its commits;
 *  2. a `search` process starts on an empty cache: cold start (its own log line) and wall time to
 *     listening; then once more on a warm cache;
 *  3. rounds of a small `_index` + `_flush`: time from `_index` 200 (and from `_flush` 200) until the
 *     searcher returns the new documents, and bytes uploaded / downloaded per commit.
 * Run with `npm run bench:s3` after `npm run build`. Knobs: YARROW_BENCH_DATA (directory of the
 * corpora), YARROW_BENCH_LIMIT (docs), YARROW_S3_ROUNDS (default 10), YARROW_S3_POLL_MS (default 1000).
 * moto keeps objects in memory and runs on this machine: network and server latency are far below
 * a real S3's, so read the figures as the engine's share of the cost.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { startMoto } from '../test/e2e/cli/moto-server.js';
import { CORPORA, NPM_SCHEMA_YAML, REPO_ROOT, dataDir, docLimit } from './corpus.js';
import { MB, int, num, table } from './format.js';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const rounds = Number(process.env.YARROW_S3_ROUNDS ?? 10);
const pollMs = Number(process.env.YARROW_S3_POLL_MS ?? 1000);
const credentials = { AWS_ACCESS_KEY_ID: 'bench', AWS_SECRET_ACCESS_KEY: 'bench', AWS_REGION: 'us-east-1' };

const config = (endpoint: string): string => `store:
  s3: { bucket: bench, prefix: yarrow, endpoint: "${endpoint}", workPath: "\${WORK_DIR}", pollIntervalMs: ${pollMs} }
${NPM_SCHEMA_YAML}`;

interface Proc {
  child: ChildProcess;
  url: string;
  log: () => string;
  startedMs: number;
}

async function start(mode: string, dir: string, work: string): Promise<Proc> {
  const began = performance.now();
  const child = spawn(process.execPath, [CLI, mode, '-c', 'conf.yml', '-p', '0', '-h', '127.0.0.1'], {
    cwd: dir,
    env: { ...process.env, ...credentials, WORK_DIR: work },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => { log += s; });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m !== null) {
        clearInterval(timer);
        resolve(m[1]);
      }
    }, 5);
    child.once('exit', (code) => { clearInterval(timer); reject(new Error(`${mode} exited with ${String(code)}:\n${log}`)); });
  });
  return { child, url, log: () => log, startedMs: performance.now() - began };
}

async function stop(p: Proc): Promise<void> {
  const exited = new Promise((resolve) => p.child.once('exit', resolve));
  p.child.kill('SIGTERM');
  await exited;
}

async function metric(p: Proc, name: string): Promise<number> {
  const text = await (await fetch(`${p.url}/metrics`)).text();
  const m = new RegExp(`^${name}\\{index="npm"\\} (\\S+)$`, 'm').exec(text);
  return m === null ? 0 : Number(m[1]);
}

async function total(p: Proc): Promise<number> {
  const res = await fetch(`${p.url}/npm/_search`, { method: 'POST', body: JSON.stringify({ query: { match_all: {} }, size: 0 }), headers: { 'content-type': 'application/json' } });
  return ((await res.json()) as { total: number }).total;
}

async function post(p: Proc, pathname: string, body?: string): Promise<void> {
  const res = await fetch(`${p.url}${pathname}`, { method: 'POST', ...(body === undefined ? {} : { body }) });
  if (res.status !== 200) throw new Error(`${pathname}: ${res.status} ${await res.text()}`);
}

async function corpusBodies(): Promise<{ bodies: string[]; docs: number }> {
  const limit = docLimit();
  const rl = createInterface({ input: createReadStream(path.join(dataDir(), CORPORA.npm.file)).pipe(createGunzip()), crlfDelay: Infinity });
  const bodies: string[] = [];
  let part: string[] = [];
  let size = 0;
  let docs = 0;
  for await (const line of rl) {
    if (line.trim() === '') continue;
    part.push(line);
    size += line.length + 1;
    docs++;
    if (size > 8 * MB) {
      bodies.push(part.join('\n'));
      part = [];
      size = 0;
    }
    if (limit !== undefined && docs >= limit) break;
  }
  if (part.length > 0) bodies.push(part.join('\n'));
  return { bodies, docs };
}

/** Polls until `probe` holds; returns the elapsed ms. */
async function waitFor(probe: () => Promise<boolean>, limitMs = 60_000): Promise<number> {
  const began = performance.now();
  while (!(await probe())) {
    if (performance.now() - began > limitMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
  return performance.now() - began;
}

function coldStart(log: string): { ms: number; bytes: number } {
  const m = /after (\d+) ms, (\d+) bytes downloaded/.exec(log);
  if (m === null) throw new Error(`no cold start line in:\n${log}`);
  return { ms: Number(m[1]), bytes: Number(m[2]) };
}

const moto = await startMoto();
const dir = await mkdtemp(path.join(tmpdir(), 'yarrow-s3-bench-'));
try {
  const s3 = new S3Client({ endpoint: moto.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } });
  await s3.send(new CreateBucketCommand({ Bucket: 'bench' }));
  s3.destroy();
  await writeFile(path.join(dir, 'conf.yml'), config(moto.endpoint));
  const { bodies, docs } = await corpusBodies();

  const writer = await start('api', dir, 'work-writer');
  const indexStarted = performance.now();
  for (const body of bodies) await post(writer, '/npm/_index', body);
  await post(writer, '/npm/_flush');
  const indexSeconds = (performance.now() - indexStarted) / 1000;
  const firstUpload = await metric(writer, 'yarrow_storage_uploaded_bytes_total');

  const cold = await start('search', dir, 'work-searcher');
  const coldFigures = coldStart(cold.log());
  if ((await total(cold)) !== docs) throw new Error(`searcher serves ${await total(cold)} docs, expected ${docs}`);
  await stop(cold);
  const warm = await start('search', dir, 'work-searcher');
  const warmFigures = coldStart(warm.log());

  const rows: number[][] = [];
  let expected = docs;
  for (let r = 0; r < rounds; r++) {
    const up = await metric(writer, 'yarrow_storage_uploaded_bytes_total');
    const down = await metric(warm, 'yarrow_storage_downloaded_bytes_total');
    const batch = Array.from({ length: 100 }, (_, i) => JSON.stringify({ _id: `bench-${r}-${i}`, name: `bench-package-${r}-${i}`, summary: 'a package added by the s3 benchmark', downloads_a_month: i })).join('\n');
    await post(writer, '/npm/_index', batch);
    const indexed = performance.now();
    await post(writer, '/npm/_flush');
    const flushed = performance.now();
    expected += 100;
    await waitFor(async () => (await total(warm)) === expected);
    const visible = performance.now();
    rows.push([visible - indexed, visible - flushed, (await metric(writer, 'yarrow_storage_uploaded_bytes_total')) - up, (await metric(warm, 'yarrow_storage_downloaded_bytes_total')) - down]);
  }
  await stop(warm);
  await stop(writer);

  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const col = (i: number): number[] => rows.map((row) => row[i]);
  console.log(`\nS3 distributed mode, npm corpus: ${int(docs)} docs, moto on loopback, poll interval ${pollMs} ms\n`);
  console.log(table([
    ['figure', 'value'],
    ['index + first flush through the api writer', `${num(indexSeconds, 1)} s`],
    ['bytes uploaded while indexing the corpus (every commit)', `${num(firstUpload / MB, 1)} MB`],
    ['searcher cold start, empty cache (manifest + segments, logged)', `${int(coldFigures.ms)} ms, ${num(coldFigures.bytes / MB, 1)} MB downloaded`],
    ['searcher process start to listening, empty cache', `${int(cold.startedMs)} ms`],
    ['searcher cold start, warm cache', `${int(warmFigures.ms)} ms, ${int(warmFigures.bytes)} B downloaded`],
    [`_index 200 -> visible on searcher (median of ${rounds}, 100 docs)`, `${int(median(col(0)))} ms (max ${int(Math.max(...col(0)))})`],
    ['_flush 200 -> visible on searcher (median)', `${int(median(col(1)))} ms (max ${int(Math.max(...col(1)))})`],
    ['bytes uploaded per small commit (median)', `${int(median(col(2)))} B`],
    ['bytes downloaded by the searcher per small commit (median)', `${int(median(col(3)))} B`],
  ]));
} finally {
  await moto.stop();
  await rm(dir, { recursive: true, force: true });
}
