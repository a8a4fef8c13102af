/**
 * Logging for the CLI, to stderr so stdout stays clean for data, adapted to the engine's Logger
 * port. Lines are human-readable (`<iso time> <LEVEL> <message>`) unless YARROW_LOG_FORMAT=json
 * asks for pino's JSON lines. A progress bar on a terminal can intercept lines so that they print
 * above it instead of through it.
 *
 * The readable lines are written here, without pino: they hold the time, the level and the message
 * of a record and nothing else (its fields are for the JSON lines), which is what pino's JSON line
 * parsed back gave before. Loading and building pino was ~10 ms of CPU of every process start, on
 * the way to `yarrow search`'s first answer (issue 17); it is loaded for JSON lines only.
 */
import type { Logger } from '../engine/index.js';

import { LOG_LEVELS } from './log-levels.js';
import type { LogLevel } from './log-levels.js';

export { LOG_LEVELS } from './log-levels.js';
export type { LogLevel } from './log-levels.js';

/** A log method: pino's two common forms, `(fields, message)` and `(message)`. */
export interface LogFn {
  (fields: object | null | undefined, message?: string): void;
  (message: string): void;
}

/** What the modes log through: the part of pino's Logger they use (a pino logger is one). */
export interface CliLogger {
  /** The least severe level written; may be changed while running (the config's `core.loglevel`). */
  level: string;
  readonly debug: LogFn;
  readonly info: LogFn;
  readonly warn: LogFn;
  readonly error: LogFn;
}

/** Where log lines end up: stderr, optionally routed through a progress display. */
export class LogSink {
  private interceptor: ((line: string) => void) | null = null;

  constructor(private readonly out: { write(chunk: string): unknown }) {}

  /** Routes lines through `fn` (e.g. a progress bar's log), or back to the stream with null. */
  intercept(fn: ((line: string) => void) | null): void {
    this.interceptor = fn;
  }

  /** Writes one whole line (ending in a newline). pino calls this with one JSON line per record. */
  write(line: string): void {
    if (this.interceptor !== null) this.interceptor(line);
    else this.out.write(line);
  }
}

/** pino's numeric value of each level: a record is written when its value is at least the logger's. */
const LEVEL_VALUES: Readonly<Record<LogLevel, number>> = { debug: 20, info: 30, warn: 40, error: 50 };

function isLogLevel(level: string): level is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(level);
}

/** Writes `<iso time> <LEVEL> <message>` lines into a {@link LogSink}, as pino's JSON lines were once formatted. */
class ReadableLogger implements CliLogger {
  private threshold: number;
  private current: LogLevel;

  constructor(level: LogLevel, private readonly sink: LogSink) {
    this.current = level;
    this.threshold = LEVEL_VALUES[level];
  }

  get level(): string {
    return this.current;
  }

  set level(level: string) {
    // As pino does: an unknown level is a programming error, not a silent no-op.
    if (!isLogLevel(level)) throw new Error(`unknown level ${level}`);
    this.current = level;
    this.threshold = LEVEL_VALUES[level];
  }

  readonly debug: LogFn = (first: unknown, message?: string) => { this.record(20, 'DEBUG', first, message); };
  readonly info: LogFn = (first: unknown, message?: string) => { this.record(30, 'INFO ', first, message); };
  readonly warn: LogFn = (first: unknown, message?: string) => { this.record(40, 'WARN ', first, message); };
  readonly error: LogFn = (first: unknown, message?: string) => { this.record(50, 'ERROR', first, message); };

  /** `first` is the message, or the fields (not shown) with `message` after them. */
  private record(value: number, label: string, first: unknown, message: string | undefined): void {
    if (value < this.threshold) return;
    const text = typeof first === 'string' ? first : (message ?? '');
    this.sink.write(`${new Date().toISOString()} ${label} ${text}\n`);
  }
}

/**
 * The CLI's logger at `level`, writing into `sink`: readable lines, or with `json` pino's JSON lines
 * (`{"level":30,"time":"<iso>",<fields>,"msg":"<message>"}`), pino loaded only then.
 */
export async function createLogger(level: LogLevel, sink: LogSink, json: boolean): Promise<CliLogger> {
  if (!json) return new ReadableLogger(level, sink);
  const { default: pino } = await import('pino');
  // Typed as the CLI's logger before it is returned: pino's type allows any member, `then` included.
  const logger: CliLogger = pino({ level, base: null, timestamp: pino.stdTimeFunctions.isoTime }, sink);
  return logger;
}

/** The engine's Logger port over the CLI's logger. */
export function engineLogger(log: CliLogger): Logger {
  return {
    debug: (message, fields) => { log.debug(fields ?? {}, message); },
    info: (message, fields) => { log.info(fields ?? {}, message); },
    warn: (message, fields) => { log.warn(fields ?? {}, message); },
    error: (message, fields) => { log.error(fields ?? {}, message); },
  };
}
