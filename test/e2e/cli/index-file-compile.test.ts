/**
 * `yarrow index file`'s bulk-load threads compile their optimised code on their own threads
 * (`bulk-prestart.ts`: `--no-concurrent-recompilation` for the isolates it starts), and the main
 * thread still compiles on V8's helpers. V8 says which in `--trace-opt`, run on the built CLI (the
 * threads start early only there).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { CLI, movieLines, Workspace } from './cli-harness.js';

/** The concurrency modes V8 reports for the TurboFan compilations of function `name`. */
function modes(trace: string, name: string): string[] {
  const re = new RegExp(`compiling method .*<JSFunction ${name} .*mode: ConcurrencyMode::(k\\w+)`, 'g');
  return [...trace.matchAll(re)].map((m) => m[1]);
}

/** Runs `node --trace-opt dist/cli.js ...args` in `dir`; resolves with its exit code, stdout (the trace) and stderr. */
function traced(dir: string, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, ['--trace-opt', CLI, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => { stdout += s; });
  child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => { resolve({ code, stdout, stderr }); });
  });
}

describe('yarrow index file (compilation)', () => {
  let ws: Workspace;
  before(async () => {
    ws = await Workspace.create();
    await ws.write('movies.jsonl', movieLines('m', 30_000));
  });
  after(async () => {
    await ws.cleanup();
  });

  it('compiles the bulk-load threads\' optimised code on those threads, the main thread\'s concurrently', async () => {
    const run = await traced(ws.dir, ['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'movies.jsonl']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /30000 docs/);
    // The byte scan of a line's text runs on the bulk-load threads only, per token.
    const threads = modes(run.stdout, 'scanAscii');
    assert.ok(threads.length > 0, 'the bulk-load threads\' token scan was optimised');
    assert.deepEqual(new Set(threads), new Set(['kSynchronous']));
    const all = [...run.stdout.matchAll(/compiling method .*mode: ConcurrencyMode::(k\w+)/g)].map((m) => m[1]);
    assert.ok(all.includes('kConcurrent'), 'the main thread still compiles on the helpers');
  });
});
