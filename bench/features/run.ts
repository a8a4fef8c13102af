/**
 * `npm run bench:features [-- --engines yarrow,sqlite-fts5,minisearch]`: the search-feature
 * scenarios (filtered, sorted, faceted, phrase) on the Debian corpus. Runs each engine in its own
 * child process, one after another, prints the report and writes every figure to
 * bench/.out/features.json. Exits 1 if an engine or a scenario failed; the rest is still reported.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT, dataDir, docLimit } from '../corpus.js';
import type { FeatureEngineName } from './feature-engine.js';
import { FEATURE_ENGINE_NAMES, isFeatureEngineName } from './feature-engine.js';
import type { FeatureResult } from './feature-result.js';
import { FEATURE_RESULT_MARKER } from './feature-result.js';
import type { FeatureOutcome } from './report.js';
import { anyFailed, formatFeatureReport } from './report.js';

const RUNNER = path.join(REPO_ROOT, 'bench', 'features', 'runner.ts');
const OUT_FILE = path.join(REPO_ROOT, 'bench', '.out', 'features.json');

function parseCli(): FeatureEngineName[] {
  const { values } = parseArgs({ options: { engines: { type: 'string' } }, strict: true });
  const requested = values.engines === undefined ? [...FEATURE_ENGINE_NAMES] : values.engines.split(',').map((s) => s.trim());
  const unknown = requested.filter((e) => !isFeatureEngineName(e));
  if (unknown.length > 0) throw new Error(`unknown engine(s) ${unknown.join(', ')}; known: ${FEATURE_ENGINE_NAMES.join(', ')}`);
  // Report order is fixed (Yarrow first) whatever order the flag lists them in.
  return FEATURE_ENGINE_NAMES.filter((e) => requested.includes(e));
}

/** The line of a runner's stderr that says why it failed. */
function failureCause(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const marker = 'features-runner failed: ';
  // An uncaught error event ends with Node's version banner, so its own "...Error: ..." line is the cause.
  return lines.find((l) => l.startsWith(marker))?.slice(marker.length) ??
    lines.find((l) => /^[A-Za-z]*Error\b/.test(l)) ?? lines.at(-1) ?? 'no result';
}

/** Runs one engine in a child process and parses its result line; a crash becomes a failed outcome. */
function runChild(engine: FeatureEngineName): Promise<FeatureOutcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', RUNNER, engine], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderrTail = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      process.stderr.write(chunk);
      stderrTail = (stderrTail + chunk).slice(-4096);
    });
    child.on('error', (err) => { resolve({ engine, ok: false, error: err.message }); });
    child.on('close', (code, signal) => {
      let result: FeatureResult | undefined;
      for (const line of stdout.split('\n')) {
        if (line.startsWith(FEATURE_RESULT_MARKER)) result = JSON.parse(line.slice(FEATURE_RESULT_MARKER.length)) as FeatureResult;
        else if (line !== '') process.stderr.write(`  [features/${engine} stdout] ${line}\n`);
      }
      if (code === 0 && result !== undefined) resolve({ engine, ok: true, result });
      else resolve({ engine, ok: false, error: `runner exited with ${signal ?? `code ${code ?? '?'}`}: ${failureCause(stderrTail)}` });
    });
  });
}

async function main(): Promise<void> {
  const engines = parseCli();
  const limit = docLimit();
  process.stderr.write(`bench:features: engines ${engines.join(', ')}; data ${dataDir()}` +
    `${limit === undefined ? '' : `; limit ${limit} docs`}\n`);
  const outcomes: FeatureOutcome[] = [];
  for (const engine of engines) {
    process.stderr.write(`bench:features: ${engine}\n`);
    outcomes.push(await runChild(engine));
  }
  process.stdout.write(`\n${formatFeatureReport(outcomes)}\n`);

  const summary = {
    startedAt: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cpus: os.cpus().length,
    limit: limit ?? null,
    outcomes,
  };
  await mkdir(path.dirname(OUT_FILE), { recursive: true });
  await writeFile(OUT_FILE, `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`\nresults written to ${path.relative(process.cwd(), OUT_FILE)}\n`);
  if (anyFailed(outcomes)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:features failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
