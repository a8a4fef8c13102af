/**
 * Conformance with Nixiesearch 0.8's documented configs (issue 15): each documented block loads,
 * or fails with the documented reason of a deliberate difference (test/compat/fixtures).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, parseConfig } from '../../src/config/index.js';
import { analyzerNames } from '../../src/engine/index.js';
import { docConfigCases } from './fixtures/nixiesearch-0.8-configs.js';
import type { DocConfigCase } from './fixtures/nixiesearch-0.8-configs.js';

function load(c: DocConfigCase): { indexes: string[] } | ConfigError {
  try {
    const { mappings } = parseConfig(c.yaml, 'doc.yml', {});
    return { indexes: [...mappings.keys()] };
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
}

const title = (c: DocConfigCase): string => `${c.source}${c.derived === undefined ? '' : ` (derived: ${c.derived})`}`;

describe('Nixiesearch 0.8 documented configs', () => {
  for (const c of docConfigCases) {
    const { expect } = c;
    if ('loads' in expect) {
      const missing = (c.analyzers ?? []).filter((a) => !analyzerNames.includes(a));
      if (missing.length === 0) {
        it(`loads ${title(c)}`, () => {
          const result = load(c);
          assert.ok(!(result instanceof ConfigError), result instanceof ConfigError ? result.message : '');
          assert.deepEqual(result.indexes, expect.loads);
        });
      } else {
        // Languages come from the analysis layer (issue 15's analyzer work, another branch): until
        // it registers them, the config fails on exactly those analyzers and nothing else.
        it(`${title(c)} waits only for analyzer(s) ${missing.join(', ')}`, () => {
          const result = load(c);
          assert.ok(result instanceof ConfigError, 'expected the missing analyzers to be refused');
          for (const p of result.problems) {
            assert.match(p.path ?? '', /\.analyze$/, p.message);
            assert.ok(missing.some((a) => p.reason.endsWith(`but got "${a}"`)), p.message);
          }
        });
      }
    } else {
      it(`refuses ${title(c)}: ${expect.why}`, () => {
        const result = load(c);
        assert.ok(result instanceof ConfigError, `expected a refusal, but it loaded ${JSON.stringify(result)}`);
        assert.match(result.message, expect.fails);
      });
    }
  }

  it('loads every complete index config that uses only lexical features, and every semantic one', () => {
    const complete = docConfigCases.filter((c) => c.features !== 'none' && 'loads' in c.expect);
    const refusedIndexConfigs = docConfigCases.filter((c) => c.features !== 'none' && !('loads' in c.expect) && c.derived === undefined);
    // Every refused block is a fragment, a placeholder, invalid YAML or a deliberate difference, each with its reason.
    for (const c of refusedIndexConfigs) assert.ok('why' in c.expect && c.expect.why.length > 0, c.source);
    assert.ok(complete.length >= 50, `only ${complete.length} loadable index configs`);
  });
});
