/** The ConfigError a config text raises, for tests that check its message and details. */
import assert from 'node:assert/strict';
import { ConfigError, parseConfig } from '../../src/config/index.js';

/** Parses `text` as `c.yml` with `env` and returns the ConfigError it raises; fails the test if none. */
export function configError(text: string, env: Record<string, string> = {}): ConfigError {
  try {
    parseConfig(text, 'c.yml', env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  return assert.fail('expected a ConfigError');
}
