/**
 * Logging for the CLI: pino, writing to stderr so stdout stays clean for data, adapted to the
 * engine's Logger port. Lines are human-readable (`<iso time> INFO  <message>`) unless
 * YARROW_LOG_FORMAT=json asks for pino's JSON lines. A progress bar on a terminal can intercept
 * lines so that they print above it instead of through it.
 */
import { pino } from 'pino';
import type { Logger as PinoLogger } from 'pino';
import type { Logger } from '../engine/index.js';

import type { LogLevel } from './log-levels.js';

export { LOG_LEVELS } from './log-levels.js';
export type { LogLevel } from './log-levels.js';

/** Where log lines end up: stderr, optionally routed through a progress display. */
export class LogSink {
  private interceptor: ((line: string) => void) | null = null;

  constructor(
    private readonly out: { write(chunk: string): unknown },
    private readonly json: boolean,
  ) {}

  /** Routes lines through `fn` (e.g. a progress bar's log), or back to the stream with null. */
  intercept(fn: ((line: string) => void) | null): void {
    this.interceptor = fn;
  }

  /** pino calls this with one JSON line per record. */
  write(line: string): void {
    const text = this.json ? line : formatLine(line);
    if (this.interceptor !== null) this.interceptor(text);
    else this.out.write(text);
  }
}

const levelNames: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

function formatLine(json: string): string {
  try {
    const record = JSON.parse(json) as { time?: string; level?: number; msg?: string };
    const level = (levelNames[record.level ?? 30] ?? 'INFO').padEnd(5);
    return `${record.time ?? new Date().toISOString()} ${level} ${record.msg ?? ''}\n`;
  } catch {
    return json;
  }
}

/** A pino logger at `level` writing into `sink`. */
export function createPino(level: LogLevel, sink: LogSink): PinoLogger {
  return pino({ level, base: null, timestamp: pino.stdTimeFunctions.isoTime }, sink);
}

/** The engine's Logger port over pino. */
export function engineLogger(log: PinoLogger): Logger {
  return {
    debug: (message, fields) => { log.debug(fields ?? {}, message); },
    info: (message, fields) => { log.info(fields ?? {}, message); },
    warn: (message, fields) => { log.warn(fields ?? {}, message); },
    error: (message, fields) => { log.error(fields ?? {}, message); },
  };
}
