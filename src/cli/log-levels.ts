/**
 * The levels of `-l, --loglevel`, apart from the logger itself so that parsing the command line
 * (and `--help`) does not load pino.
 */

/** Levels of `-l, --loglevel`. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
