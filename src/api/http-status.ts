/**
 * {@link HttpError}, the failures only the HTTP layer knows (unknown paths, wrong methods, oversized
 * bodies, missing credentials), with statuses taken from the one error catalogue
 * (src/engine/errors.ts); docs/errors.md lists the same table.
 */
import { errorCatalogue, httpStatusOf } from '../engine/index.js';
import type { ErrorCode, ErrorDetails } from '../engine/index.js';

export { httpStatusOf };

/** Error types that exist only over HTTP (catalogue codes without an exit code). */
export const HttpErrorType = {
  notFound: 'not_found',
  indexNotFound: 'index_not_found',
  methodNotAllowed: 'method_not_allowed',
  payloadTooLarge: 'payload_too_large',
  unsupportedEncoding: 'unsupported_encoding',
  invalidRequest: 'invalid_request',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  unavailable: 'unavailable',
  internal: 'internal_error',
} as const satisfies Readonly<Record<string, ErrorCode>>;

export type HttpErrorType = (typeof HttpErrorType)[keyof typeof HttpErrorType];

/** Error code -> HTTP status, for every code the service can answer with (derived from the catalogue). */
export const httpStatuses: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(errorCatalogue).flatMap(([code, entry]: [string, { readonly http: number | null }]) => (entry.http === null ? [] : [[code, entry.http]])),
);

/** A failure of the HTTP layer itself, with its type, client-facing reason and details. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly type: ErrorCode,
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
