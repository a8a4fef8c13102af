/**
 * Runs schemathesis, the OpenAPI fuzzer from PyPI: the pinned copy `.ci/run` installs into
 * `.tools/schemathesis` (a venv), or an `st` on PATH when that is absent.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The version `.ci/run` pins. */
export const SCHEMATHESIS_VERSION = '4.32.5';

const PINNED = fileURLToPath(new URL('../../.tools/schemathesis/bin/st', import.meta.url));

/** The `st` executable to run. */
export function schemathesisCommand(): string {
  return existsSync(PINNED) ? PINNED : 'st';
}

/** Runs `st ...args` in `cwd` and resolves to its exit code and everything it printed. */
export function runSchemathesis(args: readonly string[], cwd: string): Promise<{ code: number | null; output: string }> {
  const command = schemathesisCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(command, ['--no-color', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => { output += s; });
    child.stderr.setEncoding('utf8').on('data', (s: string) => { output += s; });
    child.once('error', (e) => { reject(new Error(`cannot run ${command} (bash .ci/run installs schemathesis==${SCHEMATHESIS_VERSION} into .tools/schemathesis): ${e.message}`)); });
    child.once('close', (code) => { resolve({ code, output }); });
  });
}
