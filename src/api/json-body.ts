/**
 * A request body that must be one JSON object (search, delete and merge requests): read under the
 * body limit, decoded as UTF-8, parsed; an empty body is `{}`. Anything else is a 400 saying what
 * was expected and what came.
 */
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { HttpError, HttpErrorType } from './http-status.js';
import { readWholeBody } from './request-body.js';
import { decodeUtf8 } from './request-input.js';

/** The body of `request` as a JSON object; `what` names it in errors ("the search request"). */
export async function readJsonObject(request: FastifyRequest, bodyLimit: number, what: string): Promise<Record<string, unknown>> {
  const raw = request.body as Readable | undefined;
  const text = raw === undefined ? '' : decodeUtf8(await readWholeBody(raw, request.headers, bodyLimit), what);
  let parsed: unknown = {};
  if (text.trim() !== '') {
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new HttpError(HttpErrorType.invalidRequest, `${what} is not valid JSON: ${(e as Error).message}`, { expected: 'a JSON object' });
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new HttpError(HttpErrorType.invalidRequest, `${what} must be a JSON object`, { expected: 'object', actual: Array.isArray(parsed) ? 'array' : typeof parsed });
  }
  return parsed as Record<string, unknown>;
}
