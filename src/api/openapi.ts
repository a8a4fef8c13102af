/**
 * The OpenAPI 3.1 document served at `/openapi.json`: every endpoint, its parameters, bodies and
 * responses, and which modes serve it.
 */
import type { ServerRole } from './route-context.js';

const errorResponse = (description: string): Record<string, unknown> => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ServiceError' } } },
});

const indexParam = { name: 'index', in: 'path', required: true, schema: { type: 'string' }, description: 'index name (a key of schema: in the config)' };

const json = (schema: Record<string, unknown>): Record<string, unknown> => ({ content: { 'application/json': { schema } } });

/** The document for a server of `role`. */
export function openApiDocument(role: ServerRole, version: string): Record<string, unknown> {
  const indexOp = {
    summary: 'Index documents (JSON Lines, concatenated JSON values, a JSON array or one object); all or nothing per request',
    description: 'Served by api and standalone (405 in search mode). Content-Encoding gzip, deflate, br and zstd are accepted. Answers once every document is durable in the write-ahead log.',
    parameters: [indexParam, { name: 'refresh', in: 'query', required: false, schema: { type: 'boolean' }, description: 'make the documents searchable before answering' }],
    requestBody: { required: false, content: { 'application/x-ndjson': { schema: { type: 'string' } }, 'application/json': { schema: {} } } },
    responses: {
      200: { description: 'every document is durable', ...json({ type: 'object', required: ['result', 'took'], properties: { result: { const: 'created' }, took: { type: 'integer' }, docs: { type: 'integer' }, bytes: { type: 'integer' } } }) },
      400: errorResponse('invalid JSON or a document that does not match the mapping (names line or ordinal and offset, and field)'),
      404: errorResponse('unknown index'),
      405: errorResponse('the server is read-only'),
      413: errorResponse('the body is larger than the limit'),
      415: errorResponse('unsupported Content-Encoding'),
    },
  };
  const searchResponses = {
    200: { description: 'hits', ...json({ $ref: '#/components/schemas/SearchResponse' }) },
    400: errorResponse('malformed request, or a field used in a way its mapping does not allow'),
    404: errorResponse('unknown index'),
    405: errorResponse('the server indexes only (api mode)'),
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Yarrow', version, description: `Yarrow search engine HTTP API (this server runs in ${role} mode).` },
    paths: {
      '/': { get: { summary: 'The search page (standalone, search; assets under /ui/) or server info (api)', responses: { 200: { description: 'a page or server info' } } } },
      '/ui/{file}': {
        get: {
          summary: "The search page's script, stylesheet and source maps (standalone, search)",
          parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'the file (content-hashed name, cacheable for a year)' }, 404: errorResponse('no such file') },
        },
      },
      '/_health': {
        get: {
          summary: 'Liveness and freshness: degraded while a followed index cannot poll for new commits',
          responses: {
            200: {
              description: 'ok or degraded, with each index\'s served seq and commit age',
              ...json({ type: 'object', properties: { status: { enum: ['ok', 'degraded'] }, indexes: { type: 'object', additionalProperties: { type: 'object' } } } }),
            },
          },
        },
      },
      '/health': {
        get: {
          summary: 'The same as /_health, at the path Kubernetes probes and Nixiesearch 0.8 clients call (open without a token)',
          responses: { 200: { description: 'the /_health body', ...json({ type: 'object', properties: { status: { enum: ['ok', 'degraded'] }, indexes: { type: 'object', additionalProperties: { type: 'object' } } } }) } },
        },
      },
      '/_indexes': { get: { summary: 'The served indexes with their figures', responses: { 200: { description: 'indexes', ...json({ type: 'object', properties: { indexes: { type: 'array', items: { $ref: '#/components/schemas/IndexFigures' } } } }) } } } },
      '/metrics': { get: { summary: 'Prometheus metrics', responses: { 200: { description: 'Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } } } } },
      '/openapi.json': { get: { summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1' } } } },
      '/{index}': { get: { summary: 'Mapping and figures of an index', parameters: [indexParam], responses: { 200: { description: 'figures and mapping', ...json({ $ref: '#/components/schemas/IndexFigures' }) }, 404: errorResponse('unknown index') } } },
      '/{index}/_index': { post: indexOp, put: indexOp },
      '/{index}/_flush': {
        post: {
          summary: 'Commit the index to disk; empty body once committed',
          parameters: [indexParam],
          responses: { 200: { description: 'committed' }, 404: errorResponse('unknown index'), 405: errorResponse('the server is read-only') },
        },
      },
      '/{index}/_search': {
        post: { summary: 'Search (SPEC §4.3 request body)', parameters: [indexParam], requestBody: { required: false, ...json({ $ref: '#/components/schemas/SearchRequest' }) }, responses: searchResponses },
        get: {
          summary: 'Search with the simple query syntax',
          parameters: [
            indexParam,
            { name: 'q', in: 'query', required: false, schema: { type: 'string' } },
            { name: 'size', in: 'query', required: false, schema: { type: 'integer' } },
            { name: 'from', in: 'query', required: false, schema: { type: 'integer' } },
          ],
          responses: searchResponses,
        },
      },
    },
    components: {
      schemas: {
        ServiceError: {
          type: 'object',
          required: ['error'],
          properties: { error: { type: 'object', required: ['type', 'reason'], properties: { type: { type: 'string' }, reason: { type: 'string' }, line: { type: 'integer' }, ordinal: { type: 'integer' }, offset: { type: 'integer' }, field: { type: 'string' }, expected: { type: 'string' }, actual: { type: 'string' } } } },
        },
        IndexFigures: {
          type: 'object',
          properties: { name: { type: 'string' }, docs: { type: 'integer' }, segments: { type: 'integer' }, seq: { type: 'integer' }, size: { type: 'integer' }, buffered_docs: { type: 'integer' }, mapping: { type: 'object' } },
        },
        SearchRequest: {
          type: 'object',
          properties: {
            query: { type: 'object' }, filters: { type: 'object' }, aggs: { type: 'object' }, sort: { type: 'array' }, size: { type: 'integer' }, from: { type: 'integer' },
            fields: { type: 'array', items: { type: 'string' } }, track_total_hits: { type: ['boolean', 'integer'] }, search_after: { type: 'array' }, q: { type: 'string' }, highlight: { type: 'object' },
          },
        },
        SearchResponse: {
          type: 'object',
          properties: { took: { type: 'integer' }, total: { type: 'integer' }, total_relation: { enum: ['eq', 'gte'] }, hits: { type: 'array', items: { type: 'object', properties: { _id: { type: 'string' }, _score: { type: 'number' } } } }, aggs: { type: 'object' } },
        },
      },
    },
  };
}
