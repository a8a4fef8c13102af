/**
 * The config as `GET /v1/system/config` shows it: every value that may be a secret replaced by
 * `"<redacted>"`. Nixiesearch 0.8 serves its whole config unauthenticated; Yarrow's config holds
 * API tokens, and `${ENV}` substitution can put credentials anywhere, so secrets are recognised
 * by the key that holds them and by URLs that carry a user and password.
 */

/** What a redacted value reads as. */
export const REDACTED = '<redacted>';

/** Keys whose values are secrets: tokens, passwords, API and access keys, credentials, SASL settings. */
const SECRET_KEY = /token|secret|passw(or)?d|credential|api[_-]?key|access[_-]?key|private[_-]?key|session[_-]?key|^sasl|authorization|cookie/i;

/** A copy of `value` with secrets replaced (see the module comment). */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (typeof value === 'string') return withoutUserInfo(value);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = SECRET_KEY.test(key) ? redactAll(v) : redactSecrets(v);
  return out;
}

/** Every leaf of a secret value, keeping its shape (a list of tokens stays a list, so its length shows). */
function redactAll(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactAll);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactAll(v)]));
  return value === undefined || value === null ? value : REDACTED;
}

/** `scheme://user:password@host/...` without its user and password. */
function withoutUserInfo(s: string): string {
  return s.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/i, `$1${REDACTED}@`);
}
