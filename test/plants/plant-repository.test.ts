import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../../src/engine/index.js';
import { INT64_MAX, INT64_MIN } from '../../src/plants/exact-integer.js';
import { PlantRepository, sortKey } from '../../src/plants/plant-repository.js';
import { MemoryDirectory } from '../../src/storage/index.js';

describe('sortKey', () => {
  it('orders ids numerically as strings, across the whole int64 range', () => {
    const ids = [INT64_MIN, -10n, -9n, -1n, 0n, 1n, 9n, 10n, 2n ** 53n + 1n, INT64_MAX];
    const keys = ids.map(sortKey);
    assert.deepEqual([...keys].sort(), keys);
    assert.ok(keys.every((k) => k.length === 20));
  });
});

describe('PlantRepository', () => {
  it('stores, replaces, lists in id order and deletes', async () => {
    const repo = await PlantRepository.open(new MemoryDirectory('memory:plants'), silentLogger);
    try {
      await repo.put({ id: 5n, name: 'five', tag: 'x' });
      await repo.put({ id: -3n, name: 'minus three' });
      await repo.put({ id: INT64_MAX, name: 'max' });
      await repo.put({ id: 5n, name: 'five again' });
      assert.deepEqual(await repo.get(5n), { id: 5n, name: 'five again' });
      assert.deepEqual((await repo.list(10)).map((p) => p.id), [-3n, 5n, INT64_MAX]);
      assert.deepEqual((await repo.list(2)).map((p) => p.id), [-3n, 5n]);
      assert.equal(await repo.delete(5n), true);
      assert.equal(await repo.delete(5n), false);
      assert.equal(await repo.get(5n), null);
      assert.deepEqual((await repo.list(10)).map((p) => p.name), ['minus three', 'max']);
    } finally {
      await repo.close();
    }
  });

  it('lets every read see the writes acknowledged before it, under concurrent writes', async () => {
    const repo = await PlantRepository.open(new MemoryDirectory('memory:plants'), silentLogger);
    try {
      const checks: Promise<void>[] = [];
      for (let i = 0; i < 60; i++) {
        checks.push((async () => {
          await repo.put({ id: BigInt(i), name: `p${i}` });
          assert.deepEqual(await repo.get(BigInt(i)), { id: BigInt(i), name: `p${i}` });
          if (i % 2 === 0) {
            assert.equal(await repo.delete(BigInt(i)), true);
            assert.equal(await repo.get(BigInt(i)), null);
          }
        })());
      }
      await Promise.all(checks);
      assert.equal((await repo.list(1000)).length, 30);
    } finally {
      await repo.close();
    }
  });

  it('finds its plants again after a reopen', async () => {
    const dir = new MemoryDirectory('memory:plants');
    const first = await PlantRepository.open(dir, silentLogger);
    await first.put({ id: 1n, name: 'kept', tag: 't' });
    await first.close();
    const second = await PlantRepository.open(dir, silentLogger);
    try {
      assert.deepEqual(await second.get(1n), { id: 1n, name: 'kept', tag: 't' });
    } finally {
      await second.close();
    }
  });
});
