/**
 * Issue 18, item 2: a full disk. Pushes fill a real 20 MB tmpfs volume under a running
 * `yarrow standalone`; once a write or flush fails, writes answer 503 `index_unavailable` naming
 * "disk full" (no path), `/_health` says `degraded`, searches still answer; after space is freed the
 * writer reopens itself and every acknowledged document is there.
 *
 * The volume is mounted in a private mount namespace (`unshare --mount`, or with `--user
 * --map-root-user` where plain root is not available), so it vanishes with the server whatever
 * happens. The test reaches into it through `/proc/<pid>/root`. Where no namespace can mount a
 * tmpfs, the same scenario runs against an in-process server whose directory is wrapped in the
 * fault-injecting directory, which starts answering ENOSPC after a few pushes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ApiMetrics, BearerAuth, buildServer, WritableIndex } from '../../../src/api/index.js';
import type { ServedIndex } from '../../../src/api/index.js';
import { Index, silentLogger } from '../../../src/engine/index.js';
import { FaultInjectingDirectory, LocalDirectory } from '../../../src/storage/index.js';
import { MOVIES_SCHEMA, Workspace } from '../cli/cli-harness.js';
import { ServerProcess, eventually } from './server-harness.js';

const VOLUME_MB = 20;
/** Space taken before the pushes, and given back to end the disk-full condition. */
const BALLAST_BYTES = 10 * 1024 * 1024;
const DOCS_PER_PUSH = 100;

/** A server whose disk runs full during the pushes. */
interface DiskUnderTest {
  readonly url: string;
  /** Said after each acknowledged push (the injected disk runs full after a few). */
  pushed(count: number): void;
  /** Gives space back. */
  free(): Promise<void>;
  /** Anything that must not appear in a response (the data directory's absolute path). */
  readonly privatePath: string;
  close(): Promise<void>;
}

/** The command that runs a process with a private tmpfs mounted at `$YARROW_VOLUME`, or null. */
function tmpfsLauncher(): string[] | null {
  const mount = `mount -t tmpfs -o size=${VOLUME_MB}m yarrow-disk-full "$YARROW_VOLUME" && exec "$@"`;
  const candidates = [['unshare', '--mount'], ['unshare', '--user', '--map-root-user', '--mount']];
  for (const prefix of candidates) {
    const probe = spawnSync(prefix[0], [...prefix.slice(1), 'sh', '-c', mount, 'sh', 'true'], { env: { ...process.env, YARROW_VOLUME: tmpdir() }, stdio: 'ignore' });
    if (probe.status === 0) return [...prefix, 'sh', '-c', mount, 'sh'];
  }
  return null;
}

async function onTmpfs(launcher: readonly string[]): Promise<DiskUnderTest> {
  const ws = await Workspace.create(`store:\n  local: { path: ./data }\n${MOVIES_SCHEMA}`);
  await ws.write('data/.keep', '');
  const server = await ServerProcess.start(ws, 'standalone', { YARROW_VOLUME: ws.path('data'), YARROW_REFRESH_INTERVAL_MS: '0', YARROW_REOPEN_DELAY_MS: '2000' }, [], 20_000, launcher);
  // The volume exists only in the server's mount namespace; its root is reachable through /proc.
  const ballast = join(`/proc/${String(server.child.pid)}/root`, ws.path('data'), 'ballast');
  await writeFile(ballast, new Uint8Array(BALLAST_BYTES));
  return {
    url: server.url,
    privatePath: ws.dir,
    pushed: () => undefined,
    free: () => rm(ballast),
    async close() {
      assert.equal(await server.stop(), 0, server.log);
      await ws.cleanup();
    },
  };
}

async function onInjectedFaults(): Promise<DiskUnderTest> {
  const path = await mkdtemp(join(tmpdir(), 'yarrow-disk-full-'));
  const dir = new FaultInjectingDirectory(await LocalDirectory.open(path));
  const mapping = { fields: { _id: { type: 'id' }, title: { type: 'text' }, genres: { type: 'text[]', search: false, filter: true }, year: { type: 'int', filter: true, required: true } } };
  const index = await Index.open(dir, { name: 'movies', mapping, refreshIntervalMs: 0, reopenBackoff: { firstMs: 2000, maxMs: 2000 } });
  const indexes = new Map<string, ServedIndex>([['movies', new WritableIndex('movies', index, path)]]);
  const { app } = buildServer({ role: 'standalone', indexes, log: silentLogger, version: 'test', metrics: new ApiMetrics(() => indexes.values()), auth: new BearerAuth({}) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const full = (): Error => Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC' });
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`,
    privatePath: path,
    pushed(count) {
      if (count !== 5) return;
      for (const op of ['append', 'writeFile', 'sync'] as const) dir.failEvery(op, full());
    },
    free() {
      dir.clearFaults();
      return Promise.resolve();
    },
    async close() {
      await app.close();
      await index.close();
      await rm(path, { recursive: true, force: true });
    },
  };
}

/** `n` documents of about a kilobyte of text each, with ids `<prefix><i>`. */
function pushBody(prefix: string, n: number): { body: string; ids: string[] } {
  const ids: string[] = [];
  let body = '';
  for (let i = 0; i < n; i++) {
    const id = `${prefix}${i}`;
    ids.push(id);
    const words = Array.from({ length: 150 }, (_, w) => `w${((i * 7919 + w * 104729) % 5000).toString(36)}`);
    body += `${JSON.stringify({ _id: id, title: words.join(' '), genres: ['drama'], year: 2000 + (i % 20) })}\n`;
  }
  return { body, ids };
}

interface Reply {
  readonly status: number;
  readonly json: Record<string, unknown> & { error?: { type: string; reason: string } };
}

async function call(url: string, method: string, path: string, body?: string): Promise<Reply> {
  const res = await fetch(`${url}${path}`, { method, ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }) });
  const text = await res.text();
  return { status: res.status, json: text === '' ? {} : (JSON.parse(text) as Reply['json']) };
}

interface IndexHealthBody {
  readonly status: string;
  readonly reason?: string;
}

async function health(url: string): Promise<{ status: string; movies: IndexHealthBody }> {
  const { json } = await call(url, 'GET', '/_health');
  const indexes = json.indexes as Record<string, IndexHealthBody>;
  return { status: json.status as string, movies: indexes.movies };
}

/** Every id the index serves, page by page (how many fit before the disk is full varies). */
async function allIds(url: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let after: unknown;
  for (;;) {
    const page = await call(url, 'POST', '/movies/_search', JSON.stringify({ query: { match_all: {} }, size: 5000, fields: ['_id'], sort: ['_doc'], ...(after === undefined ? {} : { search_after: after }) }));
    assert.equal(page.status, 200, JSON.stringify(page.json));
    const hits = page.json.hits as { _id: string; _sort?: unknown }[];
    for (const h of hits) ids.add(h._id);
    if (hits.length < 5000) return ids;
    after = hits[hits.length - 1]._sort;
  }
}

/** Pushes until the disk is full, checks the failure, frees space, checks the recovery; returns what it saw. */
async function runScenario(disk: DiskUnderTest): Promise<string> {
  const acked = new Set<string>();
  let failure: Reply | null = null;
  for (let push = 0; push < 1000 && failure === null; push++) {
    const { body, ids } = pushBody(`p${push}-`, DOCS_PER_PUSH);
    const indexed = await call(disk.url, 'POST', '/movies/_index', body);
    if (indexed.status !== 200) {
      failure = indexed;
      break;
    }
    for (const id of ids) acked.add(id);
    disk.pushed(push + 1);
    const flushed = await call(disk.url, 'POST', '/movies/_flush');
    if (flushed.status !== 200) failure = flushed;
  }
  assert.ok(failure !== null, 'the disk ran full during the pushes');
  assert.ok(acked.size > 0, 'some pushes were acknowledged before the disk ran full');
  assert.equal(failure.status, 503, JSON.stringify(failure.json));
  const error = failure.json.error;
  assert.ok(error !== undefined, 'an error body');
  assert.equal(error.type, 'index_unavailable');
  assert.match(error.reason, /^disk full: no space left on device \(ENOSPC\) while /);
  assert.ok(!JSON.stringify(failure.json).includes(disk.privatePath), 'no absolute path in the error');

  // While the disk stays full: health names the index and the reason, a one-document write is
  // refused the same way, and searches answer from the last good state.
  const degraded = await health(disk.url);
  assert.equal(degraded.status, 'degraded');
  assert.equal(degraded.movies.status, 'degraded');
  assert.match(degraded.movies.reason ?? '', /^disk full/);
  const one = await call(disk.url, 'POST', '/movies/_index', pushBody('one-', 1).body);
  assert.equal(one.status, 503);
  assert.equal(one.json.error?.type, 'index_unavailable');
  const searched = await call(disk.url, 'POST', '/movies/_search', JSON.stringify({ query: { match_all: {} }, size: 1 }));
  assert.equal(searched.status, 200);

  await disk.free();
  const freed = performance.now();
  await eventually(async () => (await health(disk.url)).status === 'ok', 'the writer to reopen after space was freed', 60_000);
  const reopenSeconds = (performance.now() - freed) / 1000;
  const after = pushBody('after-', 3);
  assert.equal((await call(disk.url, 'POST', '/movies/_index', after.body)).status, 200);
  for (const id of after.ids) acked.add(id);
  assert.equal((await call(disk.url, 'POST', '/movies/_flush')).status, 200);

  const found = await allIds(disk.url);
  const missing = [...acked].filter((id) => !found.has(id));
  assert.deepEqual(missing.slice(0, 5), [], `${missing.length} of ${acked.size} acknowledged documents are missing`);
  return `${acked.size - after.ids.length} documents acknowledged before the disk ran full (${error.reason.split(';')[0]}); writes accepted again ${reopenSeconds.toFixed(1)} s after space was freed; all ${acked.size} acknowledged documents served`;
}

describe('a full disk (issue 18)', () => {
  const launcher = tmpfsLauncher();
  const where = launcher === null ? 'the fault-injecting directory (no namespace can mount a tmpfs here)' : `a ${VOLUME_MB} MB tmpfs volume`;
  it(`answers 503 index_unavailable and degraded health, then recovers every acknowledged document, on ${where}`, { timeout: 180_000 }, async (t) => {
    const disk = launcher === null ? await onInjectedFaults() : await onTmpfs(launcher);
    try {
      t.diagnostic(await runScenario(disk));
    } finally {
      await disk.close();
    }
  });
});
