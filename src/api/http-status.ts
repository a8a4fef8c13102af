/**
 * The one table from error codes to HTTP statuses (docs/errors.md lists the same table next to the
 * exit codes), and {@link HttpError} for the failures only the HTTP layer knows: unknown paths,
 * wrong methods, oversized bodies.
 */
import { ErrorCode } from '../engine/index.js';
import type { ErrorDetails } from '../engine/index.js';

/** Error types that exist only over HTTP. */
export const HttpErrorType = {
  notFound: 'not_found',
  indexNotFound: 'index_not_found',
  methodNotAllowed: 'method_not_allowed',
  payloadTooLarge: 'payload_too_large',
  unsupportedEncoding: 'unsupported_encoding',
  invalidRequest: 'invalid_request',
  unavailable: 'unavailable',
  internal: 'internal_error',
} as const;

export type HttpErrorType = (typeof HttpErrorType)[keyof typeof HttpErrorType];

/** Error type -> HTTP status; types not listed are bugs and answer 500. */
export const httpStatuses: Readonly<Record<string, number>> = {
  usage: 400,
  [ErrorCode.invalidMapping]: 400,
  [ErrorCode.invalidQuery]: 400,
  [ErrorCode.invalidDocument]: 400,
  [HttpErrorType.invalidRequest]: 400,
  [HttpErrorType.notFound]: 404,
  [HttpErrorType.indexNotFound]: 404,
  [HttpErrorType.methodNotAllowed]: 405,
  [HttpErrorType.payloadTooLarge]: 413,
  [HttpErrorType.unsupportedEncoding]: 415,
  [ErrorCode.lockHeld]: 503,
  [HttpErrorType.unavailable]: 503,
  [ErrorCode.indexClosed]: 503,
  [ErrorCode.corruptIndex]: 500,
  [ErrorCode.incompatibleFormat]: 500,
  [ErrorCode.fileNotFound]: 500,
  [HttpErrorType.internal]: 500,
};

/** The status for an error type (500 for anything unknown). */
export function httpStatusOf(type: string): number {
  return Object.hasOwn(httpStatuses, type) ? httpStatuses[type] : 500;
}

/** A failure of the HTTP layer itself, with its type, client-facing reason and details. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly type: HttpErrorType,
    message: string,
    readonly details: ErrorDetails = {},
    /** Extra response headers, e.g. Allow for 405. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  get status(): number {
    return httpStatusOf(this.type);
  }
}
