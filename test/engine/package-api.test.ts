import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

describe('the yarrow-search package', () => {
  it('exports the library API by its package name (from the build)', async () => {
    const yarrow = (await import('yarrow-search')) as Record<string, unknown>;
    for (const name of ['Index', 'LocalDirectory', 'MemoryDirectory', 'YarrowError', 'ErrorCode', 'parseMapping']) {
      assert.ok(name in yarrow, `exports ${name}`);
    }
  });
});
