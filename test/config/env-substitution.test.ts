import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { substituteEnv, SubstitutionError } from '../../src/config/index.js';

describe('substituteEnv', () => {
  it('replaces ${NAME} and ${NAME:-default}', () => {
    assert.equal(substituteEnv('${A}/${B:-b}/${C:-}', { A: 'a' }), 'a/b/');
  });

  it('keeps text without references unchanged', () => {
    fc.assert(fc.property(fc.string(), (s) => {
      fc.pre(!s.includes('${'));
      assert.equal(substituteEnv(s, {}), s);
    }));
  });

  it('turns $${ into a literal ${', () => {
    assert.equal(substituteEnv('$${A}', { A: 'a' }), '${A}');
  });

  it('throws for an unset variable and for malformed references', () => {
    assert.throws(() => substituteEnv('${MISSING}', {}), SubstitutionError);
    assert.throws(() => substituteEnv('${1BAD}', {}), /malformed reference/);
  });

  it('keeps an empty value when there is no default', () => {
    assert.equal(substituteEnv('[${E}]', { E: '' }), '[]');
  });
});
