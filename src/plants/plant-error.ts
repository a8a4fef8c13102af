/**
 * Errors of the plant store and their body, the sample API's own `Error` schema
 * (`{"error": <status>, "message": "..."}`) rather than the service's SPEC §4.1 shape: the plant
 * store's OpenAPI document is the contract its clients (and schemathesis) hold it to.
 */
import { HttpError, HttpErrorType } from '../api/http-status.js';

/** A plant-store failure with its HTTP status and a message naming the problem. */
export class PlantError extends Error {
  override readonly name = 'PlantError';
  constructor(
    readonly status: number,
    message: string,
    /** Extra response headers, e.g. WWW-Authenticate for 401. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** 400 with `message`. */
export function badRequest(message: string): PlantError {
  return new PlantError(400, message);
}

/** An error response of the plant store. */
export interface PlantErrorResponse {
  readonly status: number;
  readonly body: { readonly error: number; readonly message: string };
  readonly headers: Readonly<Record<string, string>>;
  /** A bug: log it with its stack. */
  readonly unexpected: boolean;
}

/**
 * The response for whatever a plant route threw. Request-body failures of the shared reader keep
 * 413; its other failures (unknown Content-Encoding, corrupt compressed data) are invalid requests
 * like any other, so 400, the statuses the document lists.
 */
export function plantErrorResponse(error: unknown): PlantErrorResponse {
  const respond = (status: number, message: string, headers: Readonly<Record<string, string>> = {}, unexpected = false): PlantErrorResponse => ({
    status,
    body: { error: status, message },
    headers,
    unexpected,
  });
  if (error instanceof PlantError) return respond(error.status, error.message, error.headers);
  if (error instanceof HttpError) {
    if (error.type === HttpErrorType.payloadTooLarge) return respond(413, error.message, error.headers);
    if (error.status < 500) return respond(400, error.message);
    return respond(error.status, error.message, error.headers);
  }
  // Errors fastify raises before a handler runs (e.g. a malformed URL) carry a 4xx statusCode.
  if (typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    const message = 'message' in error && typeof error.message === 'string' ? error.message : 'bad request';
    return respond(error.statusCode === 413 ? 413 : 400, message);
  }
  return respond(500, 'internal error (logged by the server)', {}, true);
}
