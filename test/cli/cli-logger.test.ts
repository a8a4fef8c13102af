/**
 * The CLI's readable log lines are written without pino (issue 17: start-up); they must be the
 * lines pino's JSON records gave once formatted, which is what the CLI printed before.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { LogSink, createLogger, engineLogger } from '../../src/cli/cli-logger.js';
import type { CliLogger } from '../../src/cli/cli-logger.js';

/** A sink collecting what it is given. */
function collecting(): { sink: LogSink; lines: string[] } {
  const lines: string[] = [];
  return { sink: new LogSink({ write: (chunk: string) => lines.push(chunk) }), lines };
}

/** The former path: pino's JSON line, formatted as the CLI did before (time, padded level, message). */
function formerLine(json: string): string {
  const names: Record<number, string> = { 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR' };
  const record = JSON.parse(json) as { time: string; level: number; msg?: string };
  return `${record.time} ${names[record.level].padEnd(5)} ${record.msg ?? ''}\n`;
}

/** The same calls on a logger, including a level change and the engine's port. */
function exercise(log: CliLogger): void {
  log.info('plain message with "quotes", a % sign and\na newline');
  log.debug('not shown at info');
  log.warn({ seq: 3, files: ['a', 'b'] }, 'fields are not shown');
  log.error({}, 'error line');
  log.info({ only: 'fields' });
  log.level = 'debug';
  log.debug('shown at debug');
  engineLogger(log).info('through the engine port', { docs: 2 });
  log.level = 'error';
  log.warn('not shown at error');
  engineLogger(log).error('engine error');
}

/** Lines with their leading ISO time replaced, which differs between two runs. */
function untimed(lines: readonly string[]): string[] {
  return lines.map((l) => l.replace(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /, '<time> '));
}

describe('CLI logger', () => {
  it('writes the lines pino formatted before, level by level', async () => {
    const readable = collecting();
    exercise(await createLogger('info', readable.sink, false));
    const former = collecting();
    exercise(pino({ level: 'info', base: null, timestamp: pino.stdTimeFunctions.isoTime }, { write: (line: string) => { former.lines.push(formerLine(line)); } }));
    assert.equal(readable.lines.length, 7);
    assert.deepEqual(untimed(readable.lines), untimed(former.lines));
    assert.match(readable.lines[0], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO {2}plain message/);
  });

  it('writes pino\'s JSON lines when asked, with the fields', async () => {
    const json = collecting();
    const log = await createLogger('info', json.sink, true);
    log.info({ seq: 3 }, 'committed');
    log.debug('hidden');
    assert.equal(json.lines.length, 1);
    assert.deepEqual({ ...(JSON.parse(json.lines[0]) as object), time: 'T' }, { level: 30, time: 'T', seq: 3, msg: 'committed' });
  });

  it('refuses an unknown level, as pino does', async () => {
    const log = await createLogger('info', collecting().sink, false);
    assert.throws(() => { log.level = 'verbose'; }, /unknown level verbose/);
    assert.equal(log.level, 'info');
  });

  it('a progress bar intercepts the lines', async () => {
    const { sink, lines } = collecting();
    const intercepted: string[] = [];
    const log = await createLogger('info', sink, false);
    sink.intercept((line) => intercepted.push(line));
    log.info('above the bar');
    sink.intercept(null);
    log.info('after the bar');
    assert.deepEqual(untimed(intercepted), ['<time> INFO  above the bar\n']);
    assert.deepEqual(untimed(lines), ['<time> INFO  after the bar\n']);
  });
});
