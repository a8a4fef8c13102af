/**
 * What a failed writer tells clients: an `index_unavailable` error whose reason names the cause in
 * words an operator acts on ("disk full", "I/O error") and never a path or an internal message —
 * the storage error's own text stays in the server log. Built from the system error code, which
 * local storage raises (`ENOSPC`, `EIO`, ...), so it reads the same whatever the file was.
 */
import { ErrorCode, YarrowError } from '../errors.js';

/** System error codes and how a reason names them. */
const CAUSES: Readonly<Record<string, string>> = {
  ENOSPC: 'disk full: no space left on device (ENOSPC)',
  EDQUOT: 'disk full: disk quota exceeded (EDQUOT)',
  EFBIG: 'file too large for the file system (EFBIG)',
  EIO: 'I/O error (EIO)',
  EROFS: 'the file system is read-only (EROFS)',
  EACCES: 'permission denied (EACCES)',
  EPERM: 'operation not permitted (EPERM)',
  EMFILE: 'too many open files (EMFILE)',
  ENFILE: 'too many open files in the system (ENFILE)',
  ENOMEM: 'out of memory (ENOMEM)',
};

/** The cause of `error` in an operator's words, without paths (see the module comment). */
export function describeCause(error: unknown): string {
  // A reopen whose own commit failed: its reason is already in these words (checked first: a
  // YarrowError's code is a string too, but not a system error's).
  if (error instanceof YarrowError && error.code === ErrorCode.indexUnavailable && typeof error.details.cause === 'string') return error.details.cause;
  const code = typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (code !== undefined && !(error instanceof YarrowError)) return CAUSES[code] ?? `I/O error (${code})`;
  if (error instanceof YarrowError) return `${error.code}: ${error.message}`;
  return 'unexpected error (the server log has the details)';
}

/**
 * The error a failed writer answers every write with: `index_unavailable`, naming the cause and
 * the step that failed (e.g. "while appending to the write-ahead log").
 */
export function writerFailure(cause: unknown, during: string): YarrowError {
  const reason = describeCause(cause);
  return new YarrowError(
    ErrorCode.indexUnavailable,
    `${reason} while ${during}; writes are refused until the writer has reopened itself (it retries on its own once the cause is gone)`,
    { cause: reason },
    { cause },
  );
}
