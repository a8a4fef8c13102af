/**
 * The vendored packages of the built CLI and its modes file (src/cli/vendored.ts) start from a compile cache in
 * NODE_COMPILE_CACHE: on Node 20 the CLI's own V8 code caches, written at the exit of a run that
 * had none and replaced when V8 rejects one; on Node >= 22.1, node's compile cache.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import module from 'node:module';
import { dirname, join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLI, MOVIES_CONFIG, Workspace } from './cli-harness.js';

/** The node options of dist/cli.js's shebang line (none since the heap flags are set at run time), which the installed `yarrow` command runs with. */
function shebangFlags(): string[] {
  const shebang = readFileSync(CLI, 'utf8').split('\n', 1)[0];
  return /^#!.*\bnode\b(.*)$/.exec(shebang)?.[1].trim().split(/\s+/).filter((f) => f !== '') ?? [];
}

/**
 * Runs `yarrow search` as the `yarrow` command does (the shebang's node options), queries it once
 * it listens (unless `query` is false), stops it with SIGTERM and resolves to its exit code, stderr
 * and the ids it answered.
 */
async function searchOnce(ws: Workspace, env: Record<string, string>, query = true): Promise<{ code: number | null; stderr: string; ids: string[] }> {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  delete childEnv.NODE_TEST_CONTEXT;
  delete childEnv.NODE_OPTIONS;
  const child = spawn(process.execPath, [...shebangFlags(), CLI, 'search', '-c', 'conf.yml', '-h', '127.0.0.1', '-p', '0'], { cwd: ws.dir, env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let ids: string[] = [];
  let asked = false;
  child.stderr.setEncoding('utf8').on('data', (s: string) => {
    stderr += s;
    const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
    if (url === undefined || asked) return;
    asked = true;
    if (!query) {
      child.kill('SIGTERM');
      return;
    }
    void fetch(`${url}/movies/_search?q=alien`)
      .then(async (r) => { ids = ((await r.json()) as { hits: { _id: string }[] }).hits.map((h) => h._id); })
      .finally(() => child.kill('SIGTERM'));
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c) => { resolve(c); });
  });
  return { code, stderr, ids };
}

/** Files under `dir`, recursively, relative to it ([] when it does not exist). */
async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

const nodeCachesModules = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

describe('vendored packages start from a compile cache', () => {
  let ws: Workspace;
  before(async () => {
    ws = await Workspace.create(MOVIES_CONFIG);
    await ws.write('movies.jsonl', '{"_id":"1","title":"Alien","year":1979}\n');
  });
  after(async () => {
    await ws.cleanup();
  });

  it('a run writes the cache of what it loaded; a damaged cache is compiled around and replaced; a good one is kept', async () => {
    const cacheDir = ws.path('compile-cache');
    const env = { NODE_COMPILE_CACHE: cacheDir };
    const index = ['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'movies.jsonl'];
    const first = await ws.run(index, env);
    assert.equal(first.code, 0, first.stderr);
    const files = await filesUnder(cacheDir);
    if (nodeCachesModules) {
      // Node's own cache holds the vendored files, required like any CommonJS module.
      assert.ok(files.length > 0, `nothing in ${cacheDir}`);
      return;
    }
    // `index file` loads the modes (our own code), the config's parser and schema, not the server (nor pino, for JSON logs only).
    const caches = files.filter((f) => /cli-(vendor-[\w-]+|modes-[0-9a-f]+\.index-file)\.v8cache$/.test(f));
    assert.deepEqual(caches.map((f) => /cli-(?:vendor-)?([a-z]+)-/.exec(f)?.[1]).sort(), ['modes', 'yaml', 'zod']);
    for (const f of caches) await writeFile(f, 'not a code cache');
    // Another config text: the config cache (config-cache.ts) misses, so yaml and zod load again.
    await ws.write('conf.yml', `${MOVIES_CONFIG}# edited\n`);
    const second = await ws.run(index, env);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /indexing done: 1 docs/);
    const rewritten = await Promise.all(caches.map((f) => readFile(f)));
    for (const [i, bytes] of rewritten.entries()) assert.ok(bytes.length > 1000 && !bytes.toString('latin1').startsWith('not a code cache'), `${caches[i]} was not replaced`);
    const third = await ws.run(index, env);
    assert.equal(third.code, 0, third.stderr);
    // An accepted cache is not written again.
    for (const [i, f] of caches.entries()) assert.deepEqual(await readFile(f), rewritten[i], `${f} was rewritten`);
  });

  it('index file (heap flags set once its threads have loaded) and search (none) share their caches: neither rejects and rewrites the other\'s', async () => {
    const env = { NODE_COMPILE_CACHE: ws.path('mixed-compile-cache') };
    const index = ['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'movies.jsonl'];
    const round = async (): Promise<void> => {
      const indexed = await ws.run(index, env);
      assert.equal(indexed.code, 0, indexed.stderr);
      const searched = await searchOnce(ws, env);
      assert.equal(searched.code, 0, searched.stderr);
      assert.deepEqual(searched.ids, ['1']);
    };
    await round();
    const files = (await filesUnder(env.NODE_COMPILE_CACHE)).sort();
    assert.ok(files.length > 0, `nothing in ${env.NODE_COMPILE_CACHE}`);
    if (!nodeCachesModules) {
      // `index file` starts with no V8 flags (it sets its heap flags once the bulk threads have
      // loaded, and puts them back before the caches are written at exit), so yaml and zod, which
      // both modes load, have one cache for both: one directory.
      const dirs = new Set(files.filter((f) => /cli-vendor-zod-[0-9a-f]+\.v8cache$/.test(f)).map((f) => dirname(f)));
      assert.equal(dirs.size, 1, files.join(', '));
    }
    const written = await Promise.all(files.map((f) => readFile(f)));
    await round();
    // A bulk-load thread writes its cache after its first flush, racing its termination at the end
    // of a load this short (src/cli/bulk-worker-entry.ts): that one may first appear in this round,
    // or stay a temporary file when the thread was terminated between its write and its rename.
    const notWorker = (f: string): boolean => !/cli-worker-bulk-load-[0-9a-f]+\.v8cache(\.\d+\.tmp)?$/.test(f);
    assert.deepEqual((await filesUnder(env.NODE_COMPILE_CACHE)).sort().filter(notWorker), files.filter(notWorker));
    // Our own caches (Node 20) are never rewritten once V8 accepts them; node's compile cache (Node >=
    // 22.1) updates its entries as more functions compile, so there the set of files is what counts.
    // Buffer.equals, not deepEqual: assert's diff of two multi-MB buffers runs for minutes.
    if (!nodeCachesModules) for (const [i, f] of files.entries()) assert.ok((await readFile(f)).equals(written[i]), `${f} was rewritten: V8 rejected it`);
  });

  it('the caches a server mode writes at exit are the next start\'s: it sets a V8 flag at run time (serving-heap.ts), and puts it back first', async () => {
    const env = { NODE_COMPILE_CACHE: ws.path('server-compile-cache') };
    assert.equal((await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'movies.jsonl'], env)).code, 0);
    const first = await searchOnce(ws, env);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(first.ids, ['1']);
    const files = (await filesUnder(env.NODE_COMPILE_CACHE)).sort();
    assert.ok(files.length > 0, `nothing in ${env.NODE_COMPILE_CACHE}`);
    if (!nodeCachesModules) {
      // The modes file has a cache per mode: the one `index file` wrote does not hold the server's code.
      assert.ok(files.some((f) => /cli-modes-[0-9a-f]+\.index-file\.v8cache$/.test(f)), files.join(', '));
      const kinds = files.map((f) => /cli-(?:vendor-)?([a-z]+)-[0-9a-f]+(\.search)?\.v8cache$/.exec(f)?.[1]).filter((k) => k !== undefined);
      for (const kind of ['modes', 'fastify', 'yaml', 'zod']) assert.ok(kinds.includes(kind), `no cache of ${kind}: ${files.join(', ')}`);
    }
    const written = await Promise.all(files.map((f) => readFile(f)));
    const second = await searchOnce(ws, env);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(second.ids, ['1']);
    // V8 accepted every cache (a rejected one is written again at exit), and nothing new was compiled.
    assert.deepEqual((await filesUnder(env.NODE_COMPILE_CACHE)).sort(), files);
    // Our own caches (Node 20) are never rewritten once V8 accepts them; node's compile cache (Node >=
    // 22.1) updates its entries as more functions compile, so there the set of files is what counts.
    // Buffer.equals, not deepEqual: assert's diff of two multi-MB buffers runs for minutes.
    if (!nodeCachesModules) for (const [i, f] of files.entries()) assert.ok((await readFile(f)).equals(written[i]), `${f} was rewritten: V8 rejected it`);
  });
  it('a search stopped before its first answer writes partial caches, which the next start that answers replaces', async () => {
    const env = { NODE_COMPILE_CACHE: ws.path('partial-compile-cache') };
    assert.equal((await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'movies.jsonl'], env)).code, 0);
    const modesCache = async (): Promise<string[]> => (await filesUnder(env.NODE_COMPILE_CACHE)).filter((f) => /cli-modes-[0-9a-f]+\.search\./.test(f)).map((f) => f.replace(/.*[\\/]/, '')).sort();
    const stopped = await searchOnce(ws, env, false);
    assert.equal(stopped.code, 0, stopped.stderr);
    // Node >= 22.1 caches through node's own compile cache, which has no partial entries.
    if (nodeCachesModules) return;
    assert.deepEqual((await modesCache()).map((f) => f.replace(/-[0-9a-f]+\./, '-<hash>.')), ['cli-modes-<hash>.search.partial.v8cache']);
    const answered = await searchOnce(ws, env);
    assert.deepEqual(answered.ids, ['1']);
    const both = await modesCache();
    assert.deepEqual(both.map((f) => f.replace(/-[0-9a-f]+\./, '-<hash>.')), ['cli-modes-<hash>.search.partial.v8cache', 'cli-modes-<hash>.search.v8cache']);
    const files = (await filesUnder(env.NODE_COMPILE_CACHE)).sort();
    const written = await Promise.all(files.map((f) => readFile(f)));
    // Complete now: a third start takes the complete caches and writes nothing.
    const again = await searchOnce(ws, env);
    assert.deepEqual(again.ids, ['1']);
    assert.deepEqual((await filesUnder(env.NODE_COMPILE_CACHE)).sort(), files);
    for (const [i, f] of files.entries()) assert.ok((await readFile(f)).equals(written[i]), `${f} was rewritten`);
  });
});
