/**
 * Exit codes of the command line, rendered from the one error catalogue (src/engine/errors.ts;
 * docs/errors.md lists it): scripts can tell a usage mistake from bad input, a held lock or a
 * damaged index.
 */
// A leaf module, not the engine's barrel: the CLI loads this table before it knows its mode, and
// `--help` must not pay for the engine (test/cli/startup.test.ts).
import { ExitCode, exitCodeOfCode, isErrorCode } from '../engine/errors.js';

export { ExitCode };

/** The error's stable code, when it has one. */
export function errorCodeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = error.code;
  return isErrorCode(code) ? code : undefined;
}

/** The exit code for an error that ended a mode. */
export function exitCodeOf(error: unknown): ExitCode {
  const code = errorCodeOf(error);
  return code === undefined ? ExitCode.failure : exitCodeOfCode(code);
}
