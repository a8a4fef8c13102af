/**
 * Helpers for the plant store's end-to-end tests: a config with bearer tokens (one from the
 * environment, as users write it) and a client that sends plant requests to a running server.
 */
import { MOVIES_CONFIG } from '../cli/cli-harness.js';
import type { ServerProcess } from '../api/server-harness.js';

/** The token the tests pass in PLANT_TOKEN. */
export const TOKEN = 'e2e-token-0123456789';

/** A second configured token, written literally in the config. */
export const SECOND_TOKEN = 'second-literal-token';

/** MOVIES_CONFIG plus `api.auth.tokens` (the first substituted from PLANT_TOKEN). */
export const PLANTS_CONFIG = `${MOVIES_CONFIG}api:
  auth:
    tokens: ["\${PLANT_TOKEN}", "${SECOND_TOKEN}"]
`;

/** The environment a plant server needs for PLANTS_CONFIG. */
export const PLANT_ENV = { PLANT_TOKEN: TOKEN };

/** One answer: status, headers and the body parsed as JSON (null when empty). */
export interface PlantAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: unknown;
}

/** Sends a request under the server's URL with the token (unless `auth` says otherwise). */
export async function call(server: ServerProcess, method: string, path: string, options: { body?: string; contentType?: string | null; auth?: string | null } = {}): Promise<PlantAnswer> {
  const headers: Record<string, string> = {};
  const auth = options.auth === undefined ? `Bearer ${TOKEN}` : options.auth;
  if (auth !== null) headers.authorization = auth;
  const contentType = options.contentType === undefined ? (options.body === undefined ? null : 'application/json') : options.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  // fetch labels a string body text/plain; bytes go without a Content-Type unless one is given.
  const body = options.body === undefined ? {} : { body: new TextEncoder().encode(options.body) };
  const res = await server.fetch(path, { method, headers, ...body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text === '' ? null : JSON.parse(text) };
}

/** POSTs a plant body (a JSON text, so that ids past 2^53 can be written exactly). */
export function postPlant(server: ServerProcess, body: string, options: { contentType?: string | null; auth?: string | null } = {}): Promise<PlantAnswer> {
  return call(server, 'POST', '/plants', { body, ...options });
}

/** Asserts the answer is the document's `Error` with `status`, and returns its message. */
export function errorMessage(answer: PlantAnswer, status: number): string {
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${answer.text}`);
  const body = answer.json as { error?: unknown; message?: unknown };
  if (body.error !== status || typeof body.message !== 'string') throw new Error(`not an Error body: ${answer.text}`);
  if (!(answer.headers.get('content-type') ?? '').startsWith('application/json')) throw new Error(`content-type ${answer.headers.get('content-type')}`);
  return body.message;
}
