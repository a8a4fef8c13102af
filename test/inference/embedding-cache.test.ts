import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EmbeddingCache } from '../../src/inference/index.js';

const vec = (x: number): Float32Array => new Float32Array(4).fill(x);

describe('EmbeddingCache', () => {
  it('evicts the least recently used entry past max entries', () => {
    const c = new EmbeddingCache(2, 1e9);
    c.set('a', vec(1));
    c.set('b', vec(2));
    assert.deepEqual(c.get('a'), vec(1)); // a is now the youngest
    c.set('c', vec(3));
    assert.equal(c.get('b'), undefined);
    assert.deepEqual(c.get('a'), vec(1));
    assert.deepEqual(c.get('c'), vec(3));
    assert.deepEqual(c.stats(), { entries: 2, bytes: 2 * (16 + 200), hits: 3, misses: 1 });
  });

  it('evicts past max bytes, replaces an existing key without double counting, and never keeps a vector larger than the bound', () => {
    const c = new EmbeddingCache(100, 3 * 216);
    for (let i = 0; i < 5; i++) c.set(`k${i}`, vec(i));
    assert.equal(c.stats().entries, 3);
    assert.equal(c.get('k1'), undefined);
    c.set('k4', vec(9));
    assert.deepEqual(c.stats().bytes, 3 * 216);
    c.set('huge', new Float32Array(1000));
    assert.equal(c.get('huge'), undefined);
    assert.equal(c.stats().entries, 3);
  });

  it('keys texts by digest: equal texts share a key, different ones do not', () => {
    assert.equal(EmbeddingCache.keyOf('query: x'), EmbeddingCache.keyOf('query: x'));
    assert.notEqual(EmbeddingCache.keyOf('query: x'), EmbeddingCache.keyOf('passage: x'));
    assert.equal(EmbeddingCache.keyOf('x'.repeat(100_000)).length, 44);
  });
});
