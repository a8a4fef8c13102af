/**
 * Building blocks shared by the parts of `/openapi.json`: JSON bodies, error responses, the path
 * parameters and the security requirements of reads and writes.
 */

/** A JSON object of the document. */
export type OpenApiObject = Record<string, unknown>;

/** `content` of a JSON body or response with `schema`. */
export const json = (schema: OpenApiObject): OpenApiObject => ({ content: { 'application/json': { schema } } });

/** A `$ref` to a component schema. */
export const ref = (name: string): OpenApiObject => ({ $ref: `#/components/schemas/${name}` });

/** A response with the service's error body (SPEC §4.1). */
export const errorResponse = (description: string): OpenApiObject => ({ description, ...json(ref('ServiceError')) });

/** The `{index}` path parameter; `index` is a key of `schema:` in the config or one of its aliases. */
export const indexParam: OpenApiObject = {
  name: 'index',
  in: 'path',
  required: true,
  schema: { type: 'string', minLength: 1 },
  description: 'index name (a key of schema: in the config) or one of its aliases',
  example: 'movies',
};

/**
 * Writes need a write token once `api.auth` has tokens; with none configured they are open (and
 * the server logs a warning at start). Reads need a read or write token only when read tokens are
 * configured, so their requirement is optional (`{}`).
 */
export const writeSecurity: readonly OpenApiObject[] = [{ bearer: [] }];
export const readSecurity: readonly OpenApiObject[] = [{}, { bearer: [] }];

/** 401/403 for an operation behind tokens. */
export const authResponses: OpenApiObject = {
  401: errorResponse('tokens are configured and the request has none, or an unknown one'),
  403: errorResponse('a read token on a write'),
};

/** What every operation on one index may answer besides its success. */
export const indexErrors: OpenApiObject = {
  ...authResponses,
  404: errorResponse('no such index (the body names only the missing index)'),
  413: errorResponse('the body is larger than the limit'),
  415: errorResponse('unsupported Content-Encoding'),
  503: errorResponse('index_unavailable: the writer failed (disk full, I/O error) and recovers by itself, or search mode has no commit yet'),
};

/** A write operation on one index: 405 where the mode cannot write, 503 while the writer is failed. */
export const writeErrors: OpenApiObject = {
  ...indexErrors,
  400: errorResponse('malformed request (names field, expected and actual)'),
  405: errorResponse('the server is read-only (search mode)'),
};

/** A read operation on one index: 405 where the mode cannot search (api mode). */
export const readErrors: OpenApiObject = {
  ...indexErrors,
  400: errorResponse('malformed request, or a field used in a way its mapping does not allow'),
  405: errorResponse('the server indexes only (api mode)'),
};

/** A request body of JSON documents: JSON Lines, concatenated values, an array or one object. */
export const documentsBody: OpenApiObject = {
  required: false,
  description: 'JSON Lines, concatenated JSON values, a JSON array or one object. Content-Encoding gzip, deflate, br and zstd are accepted.',
  content: {
    'application/x-ndjson': { schema: { type: 'string' } },
    'application/json': { schema: { oneOf: [ref('Document'), { type: 'array', items: ref('Document') }] } },
  },
};
