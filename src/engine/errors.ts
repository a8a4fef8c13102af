/**
 * The one catalogue of Yarrow's error codes. Every error the product raises on purpose carries one
 * of these codes; the catalogue gives each code, once, its HTTP status, its CLI exit code and the
 * shape of its message. The HTTP layer (src/api), the command line (src/cli) and the plant store
 * (src/plants) render errors from it, and docs/errors.md is checked against it by a test
 * (test/engine/errors.test.ts; `npm run docs:errors` rewrites the table).
 *
 * It lives in the engine because the engine raises most of these codes and may import nothing
 * outside itself; the table is plain data, so the engine stays free of HTTP and process concerns.
 */

/** Process exit codes: scripts can tell a usage mistake from bad input, a held lock or a damaged index. */
export const ExitCode = {
  ok: 0,
  /** No command given, or a runtime failure (unreachable source, I/O error, a bug). */
  failure: 1,
  /** The command line or the config file is wrong. */
  usage: 2,
  /** An input document is invalid: bad JSON, wrong type, missing required field. */
  invalidInput: 3,
  /** Another process holds the index's write lock. */
  lockHeld: 4,
  /** The index on disk is damaged or from an incompatible format version. */
  badIndex: 5,
  /** Interrupted by SIGINT or SIGTERM (128 + SIGINT, as shells report it). */
  interrupted: 130,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** One entry of the catalogue. */
export interface ErrorEntry {
  /** HTTP status, or null when only the command line raises the code. */
  readonly http: number | null;
  /** Exit code, or null when only the HTTP service raises the code. */
  readonly exit: ExitCode | null;
  /** When the code is raised, and what its message names (docs/errors.md). */
  readonly when: string;
}

/**
 * Every code, once. Order is the order of docs/errors.md. Codes with `exit: null` exist only over
 * HTTP; codes with `http: null` only on the command line.
 */
export const errorCatalogue = {
  usage: {
    http: 400,
    exit: ExitCode.usage,
    when: 'bad option value, missing required option, unknown mode or option, `-i` names an index the config does not define, `-e` with a non-S3 URL, an unsupported `-u` scheme',
  },
  invalid_config: {
    http: null,
    exit: ExitCode.usage,
    when: 'the config file cannot be read, is not YAML, mixes the Yarrow and Nixiesearch shapes, or does not match the schema (one line per problem, each naming file, line, path; all problems at once)',
  },
  invalid_mapping: { http: 400, exit: ExitCode.usage, when: 'a mapping is malformed, or differs from the one an existing index was created with' },
  invalid_query: { http: 400, exit: ExitCode.usage, when: 'a search request is malformed (message names the path in the request, expected and actual)' },
  invalid_document: {
    http: 400,
    exit: ExitCode.invalidInput,
    when: 'a line or Kafka message is not valid JSON or not valid UTF-8, a value does not match its field\'s type, a required field is missing (message names source — file and line, or topic, partition and offset, or document and byte offset — field, expected and actual)',
  },
  embedding_failed: {
    http: 503,
    exit: ExitCode.failure,
    when: 'an embedding model could not embed the text of a semantic field or query (model not loaded, worker or endpoint failed, wrong vector count): message names the model and field; nothing of the batch is written',
  },
  lock_held: { http: 503, exit: ExitCode.lockHeld, when: 'another process holds the index\'s `write.lock` (message names its pid and host)' },
  corrupt_index: { http: 500, exit: ExitCode.badIndex, when: 'an index file fails its checksum or has a bad header' },
  incompatible_format: { http: 500, exit: ExitCode.badIndex, when: 'the index was written by an incompatible format version: re-index' },
  file_not_found: { http: 500, exit: ExitCode.badIndex, when: 'a file the manifest names is missing' },
  source_unavailable: {
    http: null,
    exit: ExitCode.failure,
    when: 'a source cannot be listed or read: missing path, HTTP error status, unknown bucket, unreachable endpoint, corrupt compressed data, no files under the URL, a Kafka topic that does not exist or brokers unreachable at start, a failed consumer group',
  },
  address_in_use: {
    http: null,
    exit: ExitCode.usage,
    when: '`standalone`, `api`, `search`: another process already listens on the HTTP host and port (message names them; choose another port with `-p`)',
  },
  bucket_not_found: {
    http: 503,
    exit: ExitCode.failure,
    when: 'the S3 bucket a store names does not exist (message names the bucket and the endpoint)',
  },
  not_available: { http: null, exit: ExitCode.failure, when: 'a mode or store that this build does not provide yet' },
  index_unavailable: {
    http: 503,
    exit: ExitCode.failure,
    when: 'the index writer failed on an I/O error (disk full, EIO, quota): writes and flushes answer this, naming the cause without paths, until the writer has reopened itself and replayed its write-ahead log (it retries with backoff; searches keep answering from the last good state, `/_health` says `degraded`)',
  },
  index_closed: { http: 503, exit: ExitCode.failure, when: 'an operation on a closed index (a bug in the caller; over HTTP: a request racing shutdown)' },
  interrupted: {
    http: null,
    exit: ExitCode.interrupted,
    when: 'SIGINT / SIGTERM during `index file`: the file being indexed was rolled back (`index kafka` commits and exits 0 instead)',
  },
  invalid_request: {
    http: 400,
    exit: null,
    when: 'a search body is not a JSON object or nests queries or filters deeper than 64 levels, a query parameter is malformed, repeated or not a plain decimal number, an `_index` body holds no document, compressed data is corrupt',
  },
  unauthorized: {
    http: 401,
    exit: null,
    when: 'tokens are configured (`api.auth`) and the request carries no bearer token, a malformed one or an unknown one (`WWW-Authenticate: Bearer`)',
  },
  forbidden: { http: 403, exit: null, when: 'the bearer token is known but its scope does not allow the request (a read token sent to a write endpoint)' },
  not_found: { http: 404, exit: null, when: 'no endpoint has this path' },
  index_not_found: { http: 404, exit: null, when: 'the path names an index this server does not serve (message names that index only)' },
  method_not_allowed: {
    http: 405,
    exit: null,
    when: 'the path exists with other methods (`Allow` lists them), or the mode does not serve it (writes in `search`, search in `api`; empty `Allow`)',
  },
  payload_too_large: { http: 413, exit: null, when: 'the body (received or decoded) is over the limit (`YARROW_BODY_LIMIT`, default 100 MB)' },
  unsupported_encoding: { http: 415, exit: null, when: 'a `Content-Encoding` other than gzip, deflate, br, zstd' },
  unavailable: { http: 503, exit: null, when: '`search` mode: the index has no commit yet' },
  internal_error: {
    http: 500,
    exit: ExitCode.failure,
    when: 'anything unexpected (an I/O error, a bug): generic reason over HTTP, stack in the server log only; `--loglevel debug` prints it on the command line',
  },
} as const satisfies Readonly<Record<string, ErrorEntry>>;

/** Every stable error code. */
export type ErrorCode = keyof typeof errorCatalogue;

/** The codes by name, for call sites (`ErrorCode.invalidDocument`). */
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
  /** The writer failed on an I/O error and is reopening itself; writes are refused until it has. */
  indexUnavailable: 'index_unavailable',
  /** An embedding model failed on a batch of documents or a query. */
  embeddingFailed: 'embedding_failed',
  /** An operation was attempted on a closed index. */
  indexClosed: 'index_closed',
  /** A file that a manifest names does not exist. */
  fileNotFound: 'file_not_found',
} as const satisfies Readonly<Record<string, ErrorCode>>;

/** True when `code` is in the catalogue. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(errorCatalogue, code);
}

/** The HTTP status of `code`: 500 for a code the HTTP service never raises or an unknown one. */
export function httpStatusOf(code: string): number {
  return isErrorCode(code) ? (errorCatalogue[code].http ?? 500) : 500;
}

/** The exit code of `code`: {@link ExitCode.failure} for a code the CLI never raises or an unknown one. */
export function exitCodeOfCode(code: string): ExitCode {
  return isErrorCode(code) ? (errorCatalogue[code].exit ?? ExitCode.failure) : ExitCode.failure;
}

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
