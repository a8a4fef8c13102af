/**
 * Turns whatever a route threw into the SPEC §4.1 error body `{"error":{"type","reason",...details}}`
 * and its status. Only errors raised on purpose carry their message to the client; anything else is
 * a bug, answered with a generic 500 and logged with its stack by the caller.
 */
import { YarrowError } from '../engine/index.js';
import { HttpError, HttpErrorType, httpStatusOf } from './http-status.js';
import { withoutPaths } from './request-input.js';

/** An error response ready to send. */
export interface ErrorResponse {
  readonly status: number;
  readonly body: { readonly error: Readonly<Record<string, unknown>> & { readonly type: string; readonly reason: string } };
  readonly headers: Readonly<Record<string, string>>;
  /** True when the error is unexpected (a bug): log it with its stack. */
  readonly unexpected: boolean;
}

/** The response for `error`. */
export function errorResponse(error: unknown): ErrorResponse {
  if (error instanceof HttpError) {
    return { status: error.status, body: { error: { ...error.details, type: error.type, reason: error.message } }, headers: error.headers, unexpected: false };
  }
  if (error instanceof YarrowError) {
    const status = httpStatusOf(error.code);
    // Messages of damaged-index errors name files: only their last component leaves the server.
    return { status, body: { error: { ...withoutPathDetails(error.details), type: error.code, reason: withoutPaths(error.message) } }, headers: {}, unexpected: status >= 500 };
  }
  const fastify = fastifyError(error);
  if (fastify !== null) return fastify;
  return { status: 500, body: { error: { type: HttpErrorType.internal, reason: 'internal error (logged by the server)' } }, headers: {}, unexpected: true };
}

function withoutPathDetails(details: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(details).map(([key, value]) => [key, typeof value === 'string' ? withoutPaths(value) : value]));
}

/** Errors fastify raises itself before a route runs (bad URL, unsupported media type...). */
function fastifyError(error: unknown): ErrorResponse | null {
  if (typeof error !== 'object' || error === null || !('statusCode' in error) || typeof error.statusCode !== 'number') return null;
  const status = error.statusCode;
  if (status < 400 || status >= 500) return null;
  const reason = 'message' in error && typeof error.message === 'string' ? error.message : 'bad request';
  const type = status === 413 ? HttpErrorType.payloadTooLarge : status === 404 ? HttpErrorType.notFound : HttpErrorType.invalidRequest;
  return { status, body: { error: { type, reason } }, headers: {}, unexpected: false };
}
