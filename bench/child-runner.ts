/**
 * Runs one benchmark child process (an engine in its own process, so its peak RSS is its own) and
 * collects the single result line it prints after `marker`. The child's stderr streams through;
 * its tail is kept so a failure's cause reaches the report, not only the scrollback.
 */
import { spawn } from 'node:child_process';
import { REPO_ROOT } from './corpus.js';

export type ChildOutcome<R> = { readonly ok: true; readonly result: R } | { readonly ok: false; readonly error: string };

/** Spawns `node --expose-gc --import tsx <script> ...args` in the repo root and parses its result. */
export function runBenchChild<R>(script: string, args: readonly string[], marker: string, label: string): Promise<ChildOutcome<R>> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', script, ...args], {
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
    child.on('error', (err) => { resolve({ ok: false, error: err.message }); });
    child.on('close', (code, signal) => {
      let result: R | undefined;
      for (const line of stdout.split('\n')) {
        if (line.startsWith(marker)) result = JSON.parse(line.slice(marker.length)) as R;
        // A child's own stdout chatter is passed on, not lost.
        else if (line !== '') process.stderr.write(`  [${label} stdout] ${line}\n`);
      }
      if (code === 0 && result !== undefined) resolve({ ok: true, result });
      else resolve({ ok: false, error: `runner exited with ${signal ?? `code ${code ?? '?'}`}: ${failureCause(stderrTail)}` });
    });
  });
}

/** The line of a runner's stderr that says why it failed. */
function failureCause(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  // An uncaught error event ends with Node's version banner, so its own "...Error: ..." line is the cause.
  return lines.find((l) => / failed: /.test(l))?.replace(/^.* failed: /, '') ?? lines.find((l) => /^[A-Za-z]*Error\b/.test(l)) ?? lines.at(-1) ?? 'no result';
}
