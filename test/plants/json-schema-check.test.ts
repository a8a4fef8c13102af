import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'lossless-json';
import { assertSupportedSchema, checkValue } from '../../src/plants/json-schema-check.js';
import { PlantError } from '../../src/plants/plant-error.js';
import { plantContract } from '../../src/plants/plant-openapi.js';

const { newPlant } = plantContract();

function problem(json: string): string {
  try {
    checkValue(newPlant, parse(json), 'request body', 'NewPlant');
  } catch (e) {
    assert.ok(e instanceof PlantError);
    assert.equal(e.status, 400);
    return e.message;
  }
  return 'valid';
}

describe('checkValue against the document\'s NewPlant', () => {
  it('accepts valid plants, with and without tag', () => {
    assert.equal(problem('{"id":1,"name":"rose"}'), 'valid');
    assert.equal(problem('{"id":-9223372036854775808,"name":"r","tag":""}'), 'valid');
  });

  it('names the field, the expected and the actual type', () => {
    assert.equal(problem('{"id":"7","name":"x"}'), 'id: expected integer (int64) from -9223372036854775808 to 9223372036854775807, got string "7"');
    assert.equal(problem('{"id":7,"name":{}}'), 'name: expected string, got object');
    assert.equal(problem('{"id":7}'), 'name: required field is missing (expected string)');
    assert.equal(problem('{"id":7,"name":"x","colour":1}'), 'colour: unknown field (NewPlant has id, name, tag)');
    assert.equal(problem('7'), 'request body: expected object (NewPlant), got number 7');
    assert.match(problem('{"id":2.5,"name":"x"}'), /got number 2.5 \(not an integer\)$/);
    assert.match(problem('{"id":-9223372036854775809,"name":"x"}'), /got number -9223372036854775809 \(out of range\)$/);
  });

  it('counts string length in code points, as JSON Schema does', () => {
    assert.equal(problem('{"id":1,"name":"\\ud83c\\udf39"}'), 'valid');
    assert.match(problem('{"id":1,"name":""}'), /^name: expected a string of at least 1 characters/);
  });
});

describe('assertSupportedSchema', () => {
  it('refuses keywords the validator would silently ignore', () => {
    assert.throws(() => { assertSupportedSchema({ type: 'string', pattern: '^a' }, 'x'); }, /keyword "pattern" is not enforced/);
    assert.throws(() => { assertSupportedSchema({ type: 'number' }, 'x'); }, /type must be one of/);
    assert.throws(() => { assertSupportedSchema({ type: 'object', properties: { a: { type: 'integer', format: 'uint8' } } }, 'x'); }, /x\.properties\.a: format "uint8"/);
    assert.throws(() => { assertSupportedSchema({ type: 'object', additionalProperties: true }, 'x'); }, /additionalProperties may only be false/);
  });
});
