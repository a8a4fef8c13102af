/**
 * The vendored packages of the built CLI and its modes file (src/cli/vendored.ts) start from a compile cache in
 * NODE_COMPILE_CACHE: on Node 20 the CLI's own V8 code caches, written at the exit of a run that
 * had none and replaced when V8 rejects one; on Node >= 22.1, node's compile cache.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import module from 'node:module';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MOVIES_CONFIG, Workspace } from './cli-harness.js';

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
    // `index file` loads the modes (our own code), the config's parser and schema and the logger, not the server.
    const caches = files.filter((f) => /cli-(vendor-[\w-]+|modes-[0-9a-f]+)\.v8cache$/.test(f));
    assert.deepEqual(caches.map((f) => /cli-(?:vendor-)?([a-z]+)-/.exec(f)?.[1]).sort(), ['modes', 'pino', 'yaml', 'zod']);
    for (const f of caches) await writeFile(f, 'not a code cache');
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
});
