import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INT64_MAX, INT64_MIN, integerOfLiteral } from '../../src/plants/exact-integer.js';

describe('integerOfLiteral', () => {
  it('reads integers exactly, beyond 2^53', () => {
    assert.equal(integerOfLiteral('9223372036854775807'), INT64_MAX);
    assert.equal(integerOfLiteral('-9223372036854775808'), INT64_MIN);
    assert.equal(integerOfLiteral('9007199254740993'), 9007199254740993n);
    assert.equal(integerOfLiteral('0'), 0n);
    assert.equal(integerOfLiteral('-0'), 0n);
  });

  it('treats any spelling of an integral value as an integer, as JSON Schema does', () => {
    assert.equal(integerOfLiteral('1.0'), 1n);
    assert.equal(integerOfLiteral('1e3'), 1000n);
    assert.equal(integerOfLiteral('12.50e1'), 125n);
    assert.equal(integerOfLiteral('1500E-3'), null);
    assert.equal(integerOfLiteral('1500e-2'), 15n);
    assert.equal(integerOfLiteral('0e999999999'), 0n);
  });

  it('refuses fractions, even ones JSON.parse would round away, and non-numbers', () => {
    assert.equal(integerOfLiteral('1.5'), null);
    assert.equal(integerOfLiteral('1.0000000000000000001'), null);
    assert.equal(integerOfLiteral('1e-400'), null);
    for (const text of ['', 'abc', '+1', '1.', '.5', '0x10', '1e', ' 1']) assert.equal(integerOfLiteral(text), null, text);
  });

  it('keeps huge exponents on the right side of int64 without building huge numbers', () => {
    const n = integerOfLiteral('1e999999999');
    assert.ok(n !== null && n > INT64_MAX);
    const m = integerOfLiteral('-1e999999999');
    assert.ok(m !== null && m < INT64_MIN);
  });
});
