/**
 * The one table from error codes to process exit codes (docs/errors.md lists the same table):
 * scripts can tell a usage mistake from bad input, a held lock or a damaged index.
 */
// Leaf modules, not the barrels: the CLI loads this table before it knows its mode, and `--help`
// must not pay for the engine, the config schema or the sources (test/cli/startup.test.ts).
import { ErrorCode } from '../engine/errors.js';
import { INVALID_CONFIG } from '../config/config-error.js';
import { SOURCE_UNAVAILABLE } from '../ingest/source-error.js';
import { INTERRUPTED, NOT_AVAILABLE, USAGE } from './usage-error.js';

/** Process exit codes. */
export const ExitCode = {
  ok: 0,
  /** No command given, or a runtime failure (unreachable source, I/O error, a bug). */
  failure: 1,
  /** The command line or the config file is wrong. */
  usage: 2,
  /** An input document is invalid: bad JSON, wrong type, missing required field. */
  invalidInput: 3,
  /** Another process holds the index's write lock. */
  lockHeld: 4,
  /** The index on disk is damaged or from an incompatible format version. */
  badIndex: 5,
  /** Interrupted by SIGINT or SIGTERM (128 + SIGINT, as shells report it). */
  interrupted: 130,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Error code -> exit code; codes not listed exit with {@link ExitCode.failure}. */
export const exitCodes: Readonly<Record<string, ExitCode>> = {
  [USAGE]: ExitCode.usage,
  [INVALID_CONFIG]: ExitCode.usage,
  [ErrorCode.invalidMapping]: ExitCode.usage,
  [ErrorCode.invalidQuery]: ExitCode.usage,
  [ErrorCode.invalidDocument]: ExitCode.invalidInput,
  [ErrorCode.lockHeld]: ExitCode.lockHeld,
  [ErrorCode.corruptIndex]: ExitCode.badIndex,
  [ErrorCode.incompatibleFormat]: ExitCode.badIndex,
  [ErrorCode.fileNotFound]: ExitCode.badIndex,
  [ErrorCode.indexClosed]: ExitCode.failure,
  [SOURCE_UNAVAILABLE]: ExitCode.failure,
  [NOT_AVAILABLE]: ExitCode.failure,
  [INTERRUPTED]: ExitCode.interrupted,
};

/** The error's stable code, when it has one. */
export function errorCodeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = error.code;
  return typeof code === 'string' && Object.hasOwn(exitCodes, code) ? code : undefined;
}

/** The exit code for an error that ended a mode. */
export function exitCodeOf(error: unknown): ExitCode {
  const code = errorCodeOf(error);
  return code === undefined ? ExitCode.failure : exitCodes[code];
}
