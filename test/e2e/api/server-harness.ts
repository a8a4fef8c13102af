/**
 * Starts the built `yarrow` executable in an HTTP mode on a loopback port the OS picks (`-p 0`),
 * learns the port from its "listening on" log line, and stops it with a signal.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CLI, MOVIES_SCHEMA } from '../cli/cli-harness.js';
import type { Workspace } from '../cli/cli-harness.js';

/** The write token of {@link TOKENS_CONFIG}. */
export const WRITE_TOKEN = 'e2e-write-token-0123456789';

/** The read token of {@link TOKENS_CONFIG}. */
export const READ_TOKEN = 'e2e-read-token-0123456789';

/** The movies schema on a local store (./data) with a write and a read token: writes and reads need a token. */
export const TOKENS_CONFIG = `store:
  local: { path: ./data }
${MOVIES_SCHEMA}api:
  auth:
    write_tokens: ["${WRITE_TOKEN}"]
    read_tokens: ["${READ_TOKEN}"]
`;

/** A running server process. */
export class ServerProcess {
  private output = '';
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    log: string,
    exited: Promise<number | null>,
  ) {
    this.output = log;
    this.exited = exited;
    child.stderr?.on('data', (s: string) => { this.output += s; });
  }

  /**
   * Starts `yarrow <mode> -c conf.yml -p 0 -h 127.0.0.1` in `ws`; resolves once it listens.
   * `launcher` is a command the node process is started through (e.g. `unshare --mount sh -c …`).
   */
  static async start(ws: Workspace, mode: 'api' | 'standalone' | 'search' | 'index api', env: Record<string, string> = {}, extraArgs: readonly string[] = [], timeoutMs = 20_000, launcher: readonly string[] = []): Promise<ServerProcess> {
    if (!existsSync(CLI)) throw new Error(`${CLI} does not exist: run 'npm run build' first (npm test does)`);
    const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
    delete childEnv.NODE_TEST_CONTEXT;
    delete childEnv.YARROW_LOG_FORMAT;
    const argv = [process.execPath, CLI, ...mode.split(' '), '-c', 'conf.yml', '-p', '0', '-h', '127.0.0.1', ...extraArgs];
    const [command, ...args] = [...launcher, ...argv];
    const child = spawn(command, args, { cwd: ws.dir, env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.setEncoding('utf8');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => { resolve(code); }));
    let log = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`yarrow ${mode} did not start within ${timeoutMs} ms:\n${log}`)); }, timeoutMs);
      const onData = (s: string): void => {
        log += s;
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
        if (m !== null) {
          clearTimeout(timer);
          child.stderr.off('data', onData);
          resolve(m[1]);
        }
      };
      child.stderr.on('data', onData);
      void exited.then((code) => { clearTimeout(timer); reject(new Error(`yarrow ${mode} exited with ${String(code)} before listening:\n${log}`)); });
    });
    return new ServerProcess(child, url, log, exited);
  }

  /** Everything the process logged so far. */
  get log(): string {
    return this.output;
  }

  /** Sends `signal` and resolves to the exit code (null when killed by the signal). */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }

  /** Resolves to the exit code once the process exits on its own (or after a signal sent before). */
  waitForExit(): Promise<number | null> {
    return this.exited;
  }

  /** fetch() relative to the server. */
  fetch(path: string, init?: RequestInit): Promise<Response> {
    return fetch(`${this.url}${path}`, init);
  }

  /** POSTs `body` to `/<index>/_index` and returns status and parsed JSON. */
  async index(index: string, body: string | Uint8Array, query = '', headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await this.fetch(`/${index}/_index${query}`, { method: 'POST', body, headers });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }

  /** POSTs a search request and returns the parsed response. */
  async search(index: string, request: unknown): Promise<{ status: number; json: { total: number; hits: { _id: string; [k: string]: unknown }[]; [k: string]: unknown } }> {
    const res = await this.fetch(`/${index}/_search`, { method: 'POST', body: JSON.stringify(request), headers: { 'content-type': 'application/json' } });
    return { status: res.status, json: (await res.json()) as { total: number; hits: { _id: string }[] } };
  }
}

/** Polls `probe` until it returns true, failing after `timeoutMs`. */
export async function eventually(probe: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
