/**
 * What the engines that load a JSON Lines file in a child process share (`yarrow-cli`,
 * `sqlite-fts5-file`): the runner's parsed corpus written back to a file (preparation, untimed), and
 * the loader run as a user runs it — a fresh process from start to exit — with its own peak RSS and
 * CPU time, which it reports on stderr as `max_rss_bytes=<n>` and `cpu_ms=<n>` lines (the format of
 * the `yarrow` executable under YARROW_REPORT_MAX_RSS=1).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { CorpusDoc } from '../corpus.js';

/** Writes `docs` to `file` as JSON Lines; returns the milliseconds it took (for untimedIndexMs). */
export async function writeJsonLines(file: string, docs: readonly CorpusDoc[]): Promise<number> {
  const start = performance.now();
  const out = createWriteStream(file);
  for (const doc of docs) if (!out.write(`${JSON.stringify(doc)}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  return performance.now() - start;
}

/** What a loader process reported about its whole run. */
export interface LoaderRun {
  /** Peak resident set size of the loader process. */
  readonly peakRssBytes: number;
  /** CPU time (user + system, every thread) of the loader's whole run. */
  readonly cpuMs: number;
  /** Everything it wrote to stderr. */
  readonly stderr: string;
}

/**
 * Runs `node ...args` to its exit (stdout ignored) and returns the figures it reported; throws with
 * the tail of its stderr if it fails or does not report them. `NODE_OPTIONS` is cleared so that the
 * runner's own loader (tsx) is not inherited: the child starts as a plain `node` does.
 */
export async function runLoader(label: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<LoaderRun> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
  const [code] = (await once(child, 'close')) as [number | null];
  const tail = (): string => stderr.trim().split('\n').slice(-3).join(' | ');
  if (code !== 0) throw new Error(`${label} exited with ${code}: ${tail()}`);
  const rss = /max_rss_bytes=(\d+)/.exec(stderr);
  const cpu = /cpu_ms=(\d+)/.exec(stderr);
  if (rss === null || cpu === null) throw new Error(`${label} did not report max_rss_bytes and cpu_ms: ${tail()}`);
  return { peakRssBytes: Number(rss[1]), cpuMs: Number(cpu[1]), stderr };
}
