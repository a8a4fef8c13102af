/**
 * `npm run bench:features [-- --engines yarrow,sqlite-fts5,minisearch]`: the search-feature
 * scenarios (filtered, sorted, faceted, phrase) on the Debian corpus. Runs each engine in its own
 * child process, one after another, prints the report and writes every figure to
 * bench/.out/features.json. Exits 1 if an engine or a scenario failed; the rest is still reported.
 */
import { machine } from '../format.js';
import { runBenchChild } from '../child-runner.js';
import { mkdir, writeFile } from 'node:fs/promises';
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

/** Runs one engine in a child process and parses its result line; a crash becomes a failed outcome. */
async function runChild(engine: FeatureEngineName): Promise<FeatureOutcome> {
  const outcome = await runBenchChild<FeatureResult>(RUNNER, [engine], FEATURE_RESULT_MARKER, `features/${engine}`);
  return outcome.ok ? { engine, ok: true, result: outcome.result } : { engine, ok: false, error: outcome.error };
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
    ...machine(),
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
