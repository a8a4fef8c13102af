/**
 * Bearer-token authentication (RFC 6750 header form) with two scopes, like API keys: a `write`
 * token may index, flush, delete and read; a `read` token may only read. Tokens come from the
 * config's `api.auth`: `tokens` and `write_tokens` are write tokens (`tokens`, the older key, keeps
 * meaning "may do everything"), `read_tokens` are read tokens.
 *
 * Each candidate is compared with every configured token through SHA-256 digests and
 * `crypto.timingSafeEqual`: digests have equal length whatever the token lengths, and no comparison
 * stops early, so the time taken says nothing about how close a guess was or which token matched.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError, HttpErrorType } from './http-status.js';

/** What a request needs: `read` (search, list, get) or `write` (index, flush, delete). */
export type AuthScope = 'read' | 'write';

/** The configured tokens, by scope. */
export interface AuthTokens {
  /** Tokens that may do everything (config `api.auth.tokens`). */
  readonly tokens?: readonly string[];
  /** Tokens that may write and read (config `api.auth.write_tokens`). */
  readonly writeTokens?: readonly string[];
  /** Tokens that may only read (config `api.auth.read_tokens`); when any is set, reads need a token too. */
  readonly readTokens?: readonly string[];
}

const REALM = 'yarrow';
const header = /^Bearer +(\S+) *$/i;

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

function unauthorized(message: string, error: 'invalid_request' | 'invalid_token' | null): HttpError {
  const challenge = error === null ? `Bearer realm="${REALM}"` : `Bearer realm="${REALM}", error="${error}"`;
  return new HttpError(HttpErrorType.unauthorized, message, {}, { 'www-authenticate': challenge });
}

/** Checks `Authorization` headers against the configured tokens. */
export class BearerAuth {
  private readonly write: readonly Buffer[];
  private readonly read: readonly Buffer[];

  constructor(tokens: AuthTokens) {
    this.write = [...(tokens.tokens ?? []), ...(tokens.writeTokens ?? [])].map(digest);
    this.read = (tokens.readTokens ?? []).map(digest);
  }

  /** True when any token is configured: writes then need a write token. */
  get configured(): boolean {
    return this.write.length + this.read.length > 0;
  }

  /** True when read tokens are configured: reads then need a token too. */
  get protectsReads(): boolean {
    return this.read.length > 0;
  }

  /**
   * Returns when `authorization` carries a token whose scope covers `scope`.
   * @throws HttpError 401 (`unauthorized`, with a `WWW-Authenticate: Bearer` challenge) for a
   *   missing, malformed or unknown token, or when no token is configured; 403 (`forbidden`) for a
   *   read token on a write.
   */
  check(authorization: string | undefined, scope: AuthScope): void {
    if (!this.configured) throw unauthorized('this endpoint needs a bearer token and none is configured (set api.auth.tokens in the config)', 'invalid_token');
    if (authorization === undefined || authorization === '') throw unauthorized('missing bearer token: send Authorization: Bearer <token>', null);
    const m = header.exec(authorization);
    if (m === null) throw unauthorized('malformed Authorization header: expected "Bearer <token>"', 'invalid_request');
    const candidate = digest(m[1]);
    let writes = false;
    let reads = false;
    for (const known of this.write) writes = timingSafeEqual(candidate, known) || writes;
    for (const known of this.read) reads = timingSafeEqual(candidate, known) || reads;
    if (!writes && !reads) throw unauthorized('unknown bearer token', 'invalid_token');
    if (scope === 'write' && !writes) throw new HttpError(HttpErrorType.forbidden, 'this token may only read: writes need a write token (api.auth.tokens or api.auth.write_tokens)');
  }
}
