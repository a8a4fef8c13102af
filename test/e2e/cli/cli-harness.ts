/**
 * Runs the built `yarrow` executable (package.json "bin": dist/cli.cjs) as a child process in a temporary workspace,
 * and reads back what it indexed through the library API.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Index, LocalDirectory } from '../../../src/index.js';

/** The built executable (package.json "bin", dist/cli.cjs); `npm test` builds it before running tests. */
export const CLI = fileURLToPath(new URL('../../../dist/cli.cjs', import.meta.url));

/** What a run of the CLI printed and returned. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node dist/cli.cjs ...args` and waits for it to exit. */
export async function yarrow(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  if (!existsSync(CLI)) throw new Error(`${CLI} does not exist: run 'npm run build' first (npm test does)`);
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  // The child is not a test: keep node:test's own variables away from it.
  delete env.NODE_TEST_CONTEXT;
  delete env.YARROW_LOG_FORMAT;
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => { stdout += s; });
  child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c) => { resolve(c); });
  });
  return { code, stdout, stderr };
}

/** The `error: ...` lines of a run's stderr. */
export function errorLines(run: CliRun): string[] {
  return run.stderr.split('\n').filter((l) => l.startsWith('error:'));
}

/** The `schema` section of the tests' movies index (`year` is required), for configs that differ only in their store. */
export const MOVIES_SCHEMA = `schema:
  movies:
    fields:
      _id:    { type: id }
      title:  { type: text, search: { lexical: { analyze: english } } }
      genres: { type: "text[]", search: false, filter: true }
      year:   { type: int, filter: true, required: true }
`;

/** The movies config used by the CLI tests: a local store (DATA_DIR, default ./data). */
export const MOVIES_CONFIG = `store:
  local: { path: \${DATA_DIR:-./data} }
${MOVIES_SCHEMA}`;

/** A temporary directory with a config; removed by `cleanup`. */
export class Workspace {
  private constructor(readonly dir: string) {}

  static async create(config: string = MOVIES_CONFIG): Promise<Workspace> {
    const ws = new Workspace(await mkdtemp(join(tmpdir(), 'yarrow-cli-')));
    await ws.write('conf.yml', config);
    return ws;
  }

  /** Path of `name` inside the workspace. */
  path(name: string): string {
    return join(this.dir, name);
  }

  async write(name: string, content: string | Uint8Array): Promise<string> {
    const path = this.path(name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
    return path;
  }

  /** Runs the CLI with the workspace as working directory. */
  run(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
    return yarrow(args, { cwd: this.dir, env });
  }

  /** Ids of the committed documents of an index under ./data. */
  async ids(index = 'movies', dataDir = 'data'): Promise<string[]> {
    const idx = await Index.open(await LocalDirectory.open(join(this.dir, dataDir, index)), { readOnly: true });
    try {
      const res = idx.search({ query: { match_all: {} }, size: 10_000 });
      return res.hits.map((h) => h._id).sort();
    } finally {
      await idx.close();
    }
  }

  async cleanup(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** `n` movie lines with ids `<prefix>1..n`. */
export function movieLines(prefix: string, n: number, year = 2000): string {
  let out = '';
  for (let i = 1; i <= n; i++) out += `${JSON.stringify({ _id: `${prefix}${i}`, title: `Movie ${prefix} ${i}`, genres: ['drama'], year: year + i })}\n`;
  return out;
}

/** Listens on a loopback port the OS picks and keeps it, so the CLI cannot take it. */
export async function holdPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  return { port: address.port, server };
}
