import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { HttpError, HttpErrorType, httpStatuses } from '../../src/api/index.js';
import { ExitCode, exitCodeOf, InterruptedError, NotAvailableError, UsageError } from '../../src/cli/index.js';
import { ConfigError } from '../../src/config/index.js';
import { ErrorCode, errorCatalogue, httpStatusOf, isErrorCode, YarrowError } from '../../src/engine/index.js';
import { SourceError } from '../../src/ingest/index.js';
import { ERRORS_DOC, renderErrorTable, withErrorTable } from '../../scripts/errors-doc.js';

describe('errorCatalogue', () => {
  it('lists every code the error classes and code maps carry', () => {
    const codes = [
      ...Object.values(ErrorCode),
      ...Object.values(HttpErrorType),
      new UsageError('x').code,
      new NotAvailableError('x').code,
      new InterruptedError('x').code,
      new ConfigError('x', { file: 'c.yml' }).code,
      new SourceError('x', 's').code,
    ];
    for (const code of codes) assert.ok(isErrorCode(code), `${code} is in the catalogue`);
  });

  it('gives every code an HTTP status or an exit code, and statuses in the 4xx/5xx range', () => {
    for (const [code, entry] of Object.entries(errorCatalogue) as [string, { http: number | null; exit: number | null }][]) {
      assert.ok(entry.http !== null || entry.exit !== null, `${code} is raised somewhere`);
      if (entry.http !== null) assert.ok(entry.http >= 400 && entry.http < 600, `${code}: ${entry.http}`);
    }
  });

  it('is the table the HTTP layer and the CLI render from', () => {
    assert.equal(httpStatuses.invalid_document, 400);
    assert.equal(httpStatuses.unauthorized, 401);
    assert.equal(httpStatuses.forbidden, 403);
    assert.equal(Object.hasOwn(httpStatuses, 'invalid_config'), false);
    assert.equal(new HttpError('lock_held', 'x').status, 503);
    assert.equal(httpStatusOf('no_such_code'), 500);
    assert.equal(exitCodeOf(new YarrowError(ErrorCode.lockHeld, 'x')), ExitCode.lockHeld);
    assert.equal(exitCodeOf(new InterruptedError('x')), ExitCode.interrupted);
  });

  it('matches docs/errors.md', () => {
    const doc = readFileSync(ERRORS_DOC, 'utf8');
    assert.ok(doc.includes(renderErrorTable()), 'docs/errors.md holds the rendered table; run `npm run docs:errors`');
    assert.equal(withErrorTable(doc), doc);
  });
});
