import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { analyzerNames, getAnalyzer } from '../../../src/engine/analysis/index.js';
import { run } from './helpers.js';

describe('analyzerNames', () => {
  it('lists the built-in analyzers', () => {
    for (const name of ['standard', 'english', 'keyword', 'whitespace']) assert.ok(analyzerNames.includes(name), name);
  });
});

describe('getAnalyzer', () => {
  it('returns an analyzer with the requested name for every listed name', () => {
    for (const name of analyzerNames) assert.equal(getAnalyzer(name).name, name);
  });

  it('throws invalid_mapping naming the unknown analyzer and the known ones', () => {
    assert.throws(
      () => getAnalyzer('klingon'),
      (error: unknown) => {
        assert.ok(error instanceof YarrowError);
        assert.equal(error.code, ErrorCode.invalidMapping);
        assert.match(error.message, /klingon/);
        for (const name of analyzerNames) assert.match(error.message, new RegExp(name));
        assert.equal(error.details.actual, 'klingon');
        return true;
      },
    );
  });

  it('gives different analyzers different behaviour on the same text', () => {
    const text = "The Dogs' Running";
    assert.deepEqual(run(getAnalyzer('standard'), text).terms, ['the', 'dogs', 'running']);
    assert.deepEqual(run(getAnalyzer('english'), text).terms, ['dog', 'run']);
    assert.deepEqual(run(getAnalyzer('whitespace'), text).terms, ['the', "dogs'", 'running']);
    assert.deepEqual(run(getAnalyzer('keyword'), text).terms, [text]);
  });
});
