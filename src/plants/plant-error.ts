/**
 * Errors of the plant store and their body, the sample API's own `Error` schema
 * (`{"error": <status>, "message": "..."}`) rather than the service's SPEC §4.1 shape: the plant
 * store's OpenAPI document is the contract its clients (and schemathesis) hold it to. Statuses come
 * from the one error catalogue, like every other error of the service.
 */
import { HttpError } from '../api/index.js';
import type { ErrorCode } from '../engine/index.js';
import { httpStatusOf } from '../engine/index.js';

/** A plant-store failure with its catalogue code and a message naming the problem. */
export class PlantError extends Error {
  override readonly name = 'PlantError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers, e.g. Allow for 405. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  /** The code's HTTP status. */
  get status(): number {
    return httpStatusOf(this.code);
  }
}

/** 400 (`invalid_request`) with `message`. */
export function badRequest(message: string): PlantError {
  return new PlantError('invalid_request', message);
}

/** An error response of the plant store. */
export interface PlantErrorResponse {
  readonly status: number;
  readonly body: { readonly error: number; readonly message: string };
  readonly headers: Readonly<Record<string, string>>;
  /** A bug: log it with its stack. */
  readonly unexpected: boolean;
}

/** Codes the plant document lists with their own status; any other client error is a 400. */
const documented = new Set<ErrorCode>(['invalid_request', 'unauthorized', 'forbidden', 'not_found', 'method_not_allowed', 'payload_too_large']);

const INTERNAL = 'internal error (logged by the server)';

/**
 * The response for whatever a plant route threw. Client errors keep their message; a failure of
 * the server (the index is closed, a disk error, a bug) answers a generic 500 and is logged, so no
 * internal message reaches the client. Request-body failures of the shared reader keep 413; its
 * other failures (unknown Content-Encoding, corrupt compressed data) are invalid requests like any
 * other, so 400, the statuses the document lists.
 */
export function plantErrorResponse(error: unknown): PlantErrorResponse {
  const respond = (status: number, message: string, headers: Readonly<Record<string, string>> = {}, unexpected = false): PlantErrorResponse => ({
    status,
    body: { error: status, message },
    headers,
    unexpected,
  });
  if (error instanceof PlantError || error instanceof HttpError) {
    const code = error instanceof PlantError ? error.code : error.type;
    if (error.status >= 500) return respond(500, INTERNAL, {}, true);
    return documented.has(code) ? respond(error.status, error.message, error.headers) : respond(400, error.message);
  }
  // Errors fastify raises before a handler runs (e.g. a malformed URL) carry a 4xx statusCode.
  if (typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return respond(error.statusCode === 413 ? 413 : 400, 'message' in error && typeof error.message === 'string' ? error.message : 'bad request');
  }
  return respond(500, INTERNAL, {}, true);
}
