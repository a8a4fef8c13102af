import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExitCode, exitCodeOf, UsageError } from '../../src/cli/index.js';
import { ConfigError } from '../../src/config/index.js';
import { ErrorCode, YarrowError } from '../../src/engine/index.js';
import { SourceError } from '../../src/ingest/index.js';

describe('exitCodeOf', () => {
  it('maps each error kind to its exit code', () => {
    assert.equal(exitCodeOf(new UsageError('x')), ExitCode.usage);
    assert.equal(exitCodeOf(new ConfigError('x', { file: 'c.yml' })), ExitCode.usage);
    assert.equal(exitCodeOf(new YarrowError(ErrorCode.invalidMapping, 'x')), ExitCode.usage);
    assert.equal(exitCodeOf(new YarrowError(ErrorCode.invalidDocument, 'x')), ExitCode.invalidInput);
    assert.equal(exitCodeOf(new YarrowError(ErrorCode.lockHeld, 'x')), ExitCode.lockHeld);
    assert.equal(exitCodeOf(new YarrowError(ErrorCode.corruptIndex, 'x')), ExitCode.badIndex);
    assert.equal(exitCodeOf(new YarrowError(ErrorCode.incompatibleFormat, 'x')), ExitCode.badIndex);
    assert.equal(exitCodeOf(new SourceError('x', 's')), ExitCode.failure);
  });

  it('exits 1 for errors without a known code', () => {
    assert.equal(exitCodeOf(new Error('boom')), ExitCode.failure);
    assert.equal(exitCodeOf(Object.assign(new Error('x'), { code: 'ENOENT' })), ExitCode.failure);
    assert.equal(exitCodeOf('a string'), ExitCode.failure);
  });

  it('gives every engine error code an entry', () => {
    for (const code of Object.values(ErrorCode)) assert.notEqual(exitCodeOf(new YarrowError(code, 'x')), undefined);
    assert.deepEqual(
      Object.values(ErrorCode).filter((code) => exitCodeOf(new YarrowError(code, 'x')) === ExitCode.failure),
      // A failed writer (disk full, I/O error) is a runtime failure like any I/O error: exit 1.
      [ErrorCode.indexUnavailable, ErrorCode.embeddingFailed, ErrorCode.indexClosed],
    );
  });
});
