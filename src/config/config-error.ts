/**
 * Errors of the configuration file: unreadable, not YAML, or not matching the schema. They carry the
 * file, the dotted path and the line so the CLI can print one line a user can act on.
 */
import type { ErrorCode } from '../engine/index.js';

/** Stable code of every {@link ConfigError} (docs/errors.md). */
export const INVALID_CONFIG = 'invalid_config' satisfies ErrorCode;

/** Where in the config file a problem sits. */
export interface ConfigErrorDetails {
  /** The config file as the user named it. */
  readonly file: string;
  /** Dotted path of the offending value, e.g. `schema.movies.fields.year.type`. */
  readonly path?: string;
  /** 1-based line in the file, when known. */
  readonly line?: number;
  /** 1-based column in the file, when known. */
  readonly column?: number;
}

/** One problem of a config file, with its one-line message (`<file>:<line>: <path>: <reason>`). */
export interface ConfigProblem extends ConfigErrorDetails {
  readonly reason: string;
  readonly message: string;
}

/**
 * The config file cannot be read, parsed or validated. A file with several problems reports all of
 * them: `problems` lists each (in file order), `message` has one line per problem, and `details`
 * locates the first.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code = INVALID_CONFIG;

  constructor(
    message: string,
    readonly details: ConfigErrorDetails,
    options?: ErrorOptions,
    readonly problems: readonly ConfigProblem[] = [{ ...details, reason: message, message }],
  ) {
    super(message, options);
  }
}
