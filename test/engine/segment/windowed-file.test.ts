/**
 * A file read through a window (windowed-file.ts) answers a synchronous read from the bytes loaded
 * beforehand (the head, the tail, the current window) and refuses one it was not prepared for,
 * rather than returning bytes it does not have.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WindowedFile } from '../../../src/engine/segment/windowed-file.js';

const file = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) % 256);
const reads: [number, number][] = [];
const readRange = (offset: number, length: number): Promise<Uint8Array> => {
  reads.push([offset, length]);
  return Promise.resolve(file.slice(offset, offset + length));
};
const at = (f: WindowedFile, position: number, length: number): number[] => {
  const out = new Uint8Array(length);
  assert.equal(f.read(out, position), length);
  return [...out];
};

describe('WindowedFile', () => {
  it('reads the kept head and tail, loads windows on demand and refuses reads outside them', async () => {
    const f = await WindowedFile.open('x.fdt', file.length, readRange, 8, 20, 100);
    assert.deepEqual(at(f, 0, 8), [...file.subarray(0, 8)]);
    assert.deepEqual(at(f, 985, 15), [...file.subarray(985, 1000)]);
    assert.throws(() => at(f, 500, 10), /were not loaded/);
    assert.equal(f.holds(500, 10), false);
    await f.load(500, 10);
    assert.deepEqual(reads.at(-1), [500, 100], 'a window is at least its size');
    assert.deepEqual(at(f, 590, 10), [...file.subarray(590, 600)]);
    assert.throws(() => at(f, 595, 10), /were not loaded/);
    await f.load(300, 250);
    assert.deepEqual(at(f, 300, 250), [...file.subarray(300, 550)], 'a range longer than the window is loaded whole');
    await f.keepFrom(900);
    assert.deepEqual(at(f, 900, 100), [...file.subarray(900, 1000)]);
    assert.throws(() => at(f, 590, 10), /were not loaded/, 'the previous window is gone');
  });
});
