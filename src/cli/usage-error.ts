/**
 * A command line the CLI cannot act on: a bad option value, an index the config does not define, an
 * option that does not apply to the source. Printed as one line; exit code 2.
 */
import type { ErrorCode } from '../engine/index.js';

/** Stable code of every {@link UsageError} (docs/errors.md). */
export const USAGE = 'usage' satisfies ErrorCode;

/** A mistake in the command line. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code = USAGE;
}

/** The mode exists in the command line but not yet in this build. */
export const NOT_AVAILABLE = 'not_available' satisfies ErrorCode;

/** A mode or store that a later version provides. */
export class NotAvailableError extends Error {
  override readonly name = 'NotAvailableError';
  readonly code = NOT_AVAILABLE;
}

/** The user interrupted the job (SIGINT / SIGTERM). */
export const INTERRUPTED = 'interrupted' satisfies ErrorCode;

/** The job stopped on a signal. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
  readonly code = INTERRUPTED;
}
