import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BearerAuth, HttpError } from '../../src/api/index.js';
import type { AuthScope } from '../../src/api/index.js';

function refusal(auth: BearerAuth, header: string | undefined, scope: AuthScope = 'write'): HttpError | null {
  try {
    auth.check(header, scope);
    return null;
  } catch (e) {
    assert.ok(e instanceof HttpError);
    return e;
  }
}

describe('BearerAuth', () => {
  const auth = new BearerAuth({ tokens: ['alpha-token', 'b'], writeTokens: ['writer'], readTokens: ['reader'] });

  it('accepts any configured token, whatever its length, the scheme in any case', () => {
    assert.equal(refusal(auth, 'Bearer alpha-token'), null);
    assert.equal(refusal(auth, 'bearer b'), null);
    assert.equal(refusal(auth, 'BEARER  alpha-token '), null);
  });

  it('lets write tokens write and read, read tokens only read (403 on a write)', () => {
    for (const token of ['alpha-token', 'writer']) {
      assert.equal(refusal(auth, `Bearer ${token}`, 'write'), null);
      assert.equal(refusal(auth, `Bearer ${token}`, 'read'), null);
    }
    assert.equal(refusal(auth, 'Bearer reader', 'read'), null);
    const e = refusal(auth, 'Bearer reader', 'write');
    assert.ok(e !== null);
    assert.equal(e.status, 403);
    assert.equal(e.type, 'forbidden');
    assert.equal(auth.protectsReads, true);
    assert.equal(new BearerAuth({ tokens: ['x'] }).protectsReads, false);
  });

  it('refuses missing, malformed and unknown tokens with 401 and a Bearer challenge', () => {
    const cases: readonly (readonly [string | undefined, RegExp, string])[] = [
      [undefined, /missing bearer token/, 'Bearer realm="yarrow"'],
      ['', /missing bearer token/, 'Bearer realm="yarrow"'],
      ['Basic YTpi', /malformed/, 'Bearer realm="yarrow", error="invalid_request"'],
      ['Bearer a b', /malformed/, 'Bearer realm="yarrow", error="invalid_request"'],
      ['Bearer alpha-toke', /unknown bearer token/, 'Bearer realm="yarrow", error="invalid_token"'],
      ['Bearer alpha-tokenx', /unknown bearer token/, 'Bearer realm="yarrow", error="invalid_token"'],
      ['Bearer readerx', /unknown bearer token/, 'Bearer realm="yarrow", error="invalid_token"'],
    ];
    for (const [header, message, challenge] of cases) {
      for (const scope of ['read', 'write'] as const) {
        const e = refusal(auth, header, scope);
        assert.ok(e !== null, String(header));
        assert.equal(e.status, 401);
        assert.match(e.message, message);
        assert.equal(e.headers['www-authenticate'], challenge);
      }
    }
  });

  it('refuses everything when no token is configured', () => {
    const none = new BearerAuth({});
    assert.equal(none.configured, false);
    assert.match(refusal(none, 'Bearer ')?.message ?? '', /none is configured/);
    assert.match(refusal(none, 'Bearer anything', 'read')?.message ?? '', /none is configured/);
  });
});
