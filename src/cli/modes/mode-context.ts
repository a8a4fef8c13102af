/**
 * What every mode gets from the entry point: the process's streams and environment, its logger,
 * and a signal that fires on SIGINT / SIGTERM.
 */
import type { Env } from '../../config/index.js';
import type { CliLogger, LogLevel, LogSink } from '../cli-logger.js';

/** The surroundings of a running mode. */
export interface ModeContext {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream & { readonly isTTY?: boolean };
  readonly env: Env;
  /** Aborted when the user interrupts the process. */
  readonly signal: AbortSignal;
  readonly log: CliLogger;
  /** Where `log` writes; a progress bar hooks into it. */
  readonly sink: LogSink;
}

/** Options every mode has (SPEC §1.1). */
export interface CommonOptions {
  readonly config: string | undefined;
  readonly loglevel: LogLevel;
}

/** Options of the HTTP modes: `api`, `index api`, `standalone`, `search`. */
export interface ServerOptions extends CommonOptions {
  readonly host: string;
  readonly port: number;
  /**
   * The options the command line set explicitly: they win over the config's `core` section, which
   * wins over the defaults in `host`, `port` and `loglevel`. Absent: all of them are explicit.
   */
  readonly explicit?: readonly ('host' | 'port' | 'loglevel')[];
}
