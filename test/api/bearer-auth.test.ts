import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BearerAuth } from '../../src/plants/bearer-auth.js';
import { PlantError } from '../../src/plants/plant-error.js';

function refusal(auth: BearerAuth, header: string | undefined): PlantError | null {
  try {
    auth.check(header);
    return null;
  } catch (e) {
    assert.ok(e instanceof PlantError);
    return e;
  }
}

describe('BearerAuth', () => {
  const auth = new BearerAuth(['alpha-token', 'b']);

  it('accepts any configured token, whatever its length, the scheme in any case', () => {
    assert.equal(refusal(auth, 'Bearer alpha-token'), null);
    assert.equal(refusal(auth, 'bearer b'), null);
    assert.equal(refusal(auth, 'BEARER  alpha-token '), null);
  });

  it('refuses missing, malformed and unknown tokens with 401 and a Bearer challenge', () => {
    const cases: readonly (readonly [string | undefined, RegExp, string])[] = [
      [undefined, /missing bearer token/, 'Bearer realm="yarrow"'],
      ['', /missing bearer token/, 'Bearer realm="yarrow"'],
      ['Basic YTpi', /malformed/, 'Bearer realm="yarrow", error="invalid_request"'],
      ['Bearer a b', /malformed/, 'Bearer realm="yarrow", error="invalid_request"'],
      ['Bearer alpha-toke', /unknown bearer token/, 'Bearer realm="yarrow", error="invalid_token"'],
      ['Bearer alpha-tokenx', /unknown bearer token/, 'Bearer realm="yarrow", error="invalid_token"'],
    ];
    for (const [header, message, challenge] of cases) {
      const e = refusal(auth, header);
      assert.ok(e !== null, String(header));
      assert.equal(e.status, 401);
      assert.match(e.message, message);
      assert.equal(e.headers['www-authenticate'], challenge);
    }
  });

  it('refuses everything when no token is configured', () => {
    const none = new BearerAuth([]);
    assert.equal(none.configured, false);
    assert.match(refusal(none, 'Bearer ')?.message ?? '', /none is configured/);
    assert.match(refusal(none, 'Bearer anything')?.message ?? '', /none is configured/);
  });
});
