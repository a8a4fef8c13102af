/**
 * The one map of Yarrow's error codes. Every error the product raises on purpose is a
 * {@link YarrowError} with one of these codes and structured details; the HTTP layer maps codes to
 * statuses and the CLI maps them to exit codes, each through one table (docs/errors.md lists them).
 */
export const ErrorCode = {
  /** A document does not match the mapping (wrong type, missing required field, bad JSON). */
  invalidDocument: 'invalid_document',
  /** The mapping (config `schema` section) is malformed. */
  invalidMapping: 'invalid_mapping',
  /** A search request is malformed or names a field in a way its mapping does not allow. */
  invalidQuery: 'invalid_query',
  /** Another writer holds the index's write lock. */
  lockHeld: 'lock_held',
  /** An index file failed its checksum, or has a bad magic or header. */
  corruptIndex: 'corrupt_index',
  /** The index was written by an incompatible format version. */
  incompatibleFormat: 'incompatible_format',
  /** An operation was attempted on a closed index. */
  indexClosed: 'index_closed',
  /** A file that a manifest names does not exist. */
  fileNotFound: 'file_not_found',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Structured facts about an error, rendered into HTTP bodies and CLI lines. */
export interface ErrorDetails {
  /** Source of the input (file name, URL, topic/partition). */
  source?: string;
  /** 1-based line number in a JSONL source. */
  line?: number;
  /** 1-based ordinal of the document in its batch, when lines are not known. */
  ordinal?: number;
  /** Byte offset of the document in its source. */
  offset?: number;
  /** Dotted path of the offending field. */
  field?: string;
  /** The type the mapping expects. */
  expected?: string;
  /** The type that was found. */
  actual?: string;
  [key: string]: unknown;
}

/** An error raised on purpose by Yarrow, with a stable code and structured details. */
export class YarrowError extends Error {
  override readonly name = 'YarrowError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
