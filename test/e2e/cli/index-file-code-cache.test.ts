/**
 * `yarrow index file` sets its heap flags only once its bulk-load threads have loaded their code
 * (`bulk-prestart.ts`): V8 rejects a code cache made under other flags, and node's caches of its
 * built-in modules are made under none, so with the flags set at start every thread compiled node's
 * built-ins from source (issue 17). Node says which caches it took with NODE_DEBUG_NATIVE=CODE_CACHE,
 * run on the built CLI (the threads start early only there).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { movieLines, Workspace, yarrow } from './cli-harness.js';

/** How often node reported the code cache of built-in module `id` accepted and rejected. */
function verdicts(trace: string, id: string): { accepted: number; rejected: number } {
  const count = (verdict: string): number => trace.split('\n').filter((l) => l.startsWith(`Code cache of ${id} `) && l.endsWith(`is ${verdict}`)).length;
  return { accepted: count('accepted'), rejected: count('rejected') };
}

describe('yarrow index file (code caches)', () => {
  let ws: Workspace;
  before(async () => {
    ws = await Workspace.create();
    await ws.write('movies.jsonl', movieLines('m', 5_000));
  });
  after(async () => {
    await ws.cleanup();
  });

  it('the bulk-load threads and the main thread take node\'s code caches of its built-in modules', async () => {
    const run = await yarrow(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'movies.jsonl'], { cwd: ws.dir, env: { NODE_DEBUG_NATIVE: 'CODE_CACHE' } });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /5000 docs/);
    // Each bulk-load thread's bootstrap; node:worker_threads, which the main thread loads to start them, and each thread too.
    assert.deepEqual(verdicts(run.stderr, 'internal/main/worker_thread'), { accepted: 2, rejected: 0 });
    assert.deepEqual(verdicts(run.stderr, 'worker_threads'), { accepted: 3, rejected: 0 });
    const rejected = run.stderr.split('\n').filter((l) => l.startsWith('Code cache of ') && l.endsWith('is rejected'));
    const accepted = run.stderr.split('\n').filter((l) => l.startsWith('Code cache of ') && l.endsWith('is accepted'));
    assert.ok(rejected.length * 10 < accepted.length, `${String(rejected.length)} rejected, ${String(accepted.length)} accepted:\n${rejected.join('\n')}`);
  });
});
