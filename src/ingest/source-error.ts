/**
 * A source cannot be listed or read: a missing path, an HTTP error status, an unknown bucket, an
 * unreachable endpoint, corrupt compressed data. The message names the source and is one line.
 */
import type { ErrorCode } from '../engine/index.js';

/** Stable code of every {@link SourceError} (docs/errors.md). */
export const SOURCE_UNAVAILABLE = 'source_unavailable' satisfies ErrorCode;

/** A source cannot be listed or read. */
export class SourceError extends Error {
  override readonly name = 'SourceError';
  readonly code = SOURCE_UNAVAILABLE;

  constructor(
    message: string,
    /** The URL or file the error is about. */
    readonly source: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A one-line reason for a low-level error (errno codes read better than their messages). */
export function describeCause(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = (e as { cause?: unknown }).cause;
  // fetch() wraps the real reason ("ECONNREFUSED") in a generic "fetch failed".
  if (e.message === 'fetch failed' && cause instanceof Error) return describeCause(cause);
  const code = (e as NodeJS.ErrnoException).code;
  const first = e.message.split('\n')[0];
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (typeof code === 'string' && !first.includes(code)) return `${first} (${code})`;
  return first;
}
