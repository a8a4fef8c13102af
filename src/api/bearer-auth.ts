/**
 * Bearer-token authentication of the plant store (RFC 6750 header form). Tokens come from the
 * config's `api.auth.tokens`. Each candidate is compared with every configured token through
 * SHA-256 digests and `crypto.timingSafeEqual`: digests have equal length whatever the token
 * lengths, and no comparison stops early, so the time taken says nothing about how close a guess
 * was or which token matched. A store without tokens refuses every request instead of being open.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { PlantError } from './plant-error.js';

const REALM = 'yarrow';
const header = /^Bearer +(\S+) *$/i;

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

function unauthorized(message: string, error: 'invalid_request' | 'invalid_token' | null): PlantError {
  const challenge = error === null ? `Bearer realm="${REALM}"` : `Bearer realm="${REALM}", error="${error}"`;
  return new PlantError(401, message, { 'www-authenticate': challenge });
}

/** Checks `Authorization` headers against the configured tokens. */
export class BearerAuth {
  private readonly digests: readonly Buffer[];

  constructor(tokens: readonly string[]) {
    this.digests = tokens.map(digest);
  }

  /** False when no token is configured: every request is then refused. */
  get configured(): boolean {
    return this.digests.length > 0;
  }

  /**
   * Returns when `authorization` carries a configured token.
   * @throws PlantError 401 with a `WWW-Authenticate: Bearer` challenge otherwise.
   */
  check(authorization: string | undefined): void {
    if (!this.configured) throw unauthorized('the plant store accepts no token: none is configured (set api.auth.tokens in the config)', 'invalid_token');
    if (authorization === undefined || authorization === '') throw unauthorized('missing bearer token: send Authorization: Bearer <token>', null);
    const m = header.exec(authorization);
    if (m === null) throw unauthorized('malformed Authorization header: expected "Bearer <token>"', 'invalid_request');
    const candidate = digest(m[1]);
    let match = false;
    for (const known of this.digests) match = timingSafeEqual(candidate, known) || match;
    if (!match) throw unauthorized('unknown bearer token', 'invalid_token');
  }
}
