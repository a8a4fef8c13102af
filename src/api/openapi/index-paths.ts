/**
 * The per-index paths of `/openapi.json` in the seed's legacy form (`/{index}/_x`, SPEC §4.2-4.3)
 * and in Nixiesearch 0.8's `/v1/index/{index}/x` form: indexing, flush, merge, search, suggest,
 * deletes, mapping and stats. The two forms do the same; `/v1` answers in 0.8's shapes (`took` in
 * seconds, `status: ok`), the legacy routes in the seed's (`took` in milliseconds).
 */
import type { OpenApiObject } from './openapi-parts.js';
import { documentsBody, errorResponse, indexParam, json, readErrors, readSecurity, ref, writeErrors, writeSecurity } from './openapi-parts.js';

const ok = (description: string, schema: string): OpenApiObject => ({ description, ...json(ref(schema)) });

const docIdParam: OpenApiObject = { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 }, description: 'the document\'s _id' };

const refreshParam: OpenApiObject = { name: 'refresh', in: 'query', required: false, schema: { enum: ['true', 'false', ''] }, description: 'make the documents searchable before answering' };

const write = (summary: string, response: OpenApiObject, extra: OpenApiObject = {}): OpenApiObject => ({
  summary,
  security: writeSecurity,
  parameters: [indexParam],
  ...extra,
  responses: { 200: response, ...writeErrors },
});

const read = (summary: string, response: OpenApiObject, extra: OpenApiObject = {}): OpenApiObject => ({
  summary,
  security: readSecurity,
  parameters: [indexParam],
  ...extra,
  responses: { 200: response, ...readErrors },
});

const jsonBody = (schema: string, required = false): OpenApiObject => ({ requestBody: { required, ...json(ref(schema)) } });

/** Paths in the seed's legacy form. */
export function legacyIndexPaths(): OpenApiObject {
  const indexOp = write(
    'Index documents; all or nothing per request, answered once every document is durable in the write-ahead log',
    ok('every document is durable', 'IndexResult'),
    { parameters: [indexParam, refreshParam], requestBody: documentsBody, description: 'Served by api and standalone. An empty body is a 400; invalid UTF-8 is a 400 naming the byte offset.' },
  );
  return {
    '/{index}': {
      get: { summary: 'Mapping and figures of an index', security: readSecurity, parameters: [indexParam], responses: { 200: ok('figures and mapping', 'IndexFigures'), ...readErrors } },
    },
    '/{index}/_index': { post: indexOp, put: indexOp },
    '/{index}/_flush': { post: write('Commit the index to disk; empty body once committed', { description: 'committed' }) },
    '/{index}/_merge': { post: write('Merge segments (optionally down to `segments`), then commit', ok('merged', 'WriteResult'), jsonBody('MergeRequest')) },
    '/{index}/_delete': { post: write('Delete the documents matching a filter (a request without filters is a 400)', ok('deleted', 'WriteResult'), jsonBody('DeleteRequest', true)) },
    '/{index}/_delete/{id}': { delete: write('Delete one document by _id', ok('deleted is 0 or 1', 'WriteResult'), { parameters: [indexParam, docIdParam] }) },
    '/{index}/_search': {
      post: read('Search (SPEC §4.3 request body; an empty body is match_all)', ok('hits', 'SearchResponse'), jsonBody('SearchRequest')),
      get: read('Search with the simple query syntax', ok('hits', 'SearchResponse'), {
        parameters: [
          indexParam,
          { name: 'q', in: 'query', required: false, schema: { type: 'string' }, description: 'simple query syntax; absent or blank is match_all' },
          { name: 'size', in: 'query', required: false, schema: { type: 'integer', minimum: 0 }, description: 'decimal digits only' },
          { name: 'from', in: 'query', required: false, schema: { type: 'integer', minimum: 0 }, description: 'decimal digits only' },
        ],
      }),
    },
    '/{index}/_suggest': {
      post: read('Completion suggestions from fields with suggest enabled', ok('suggestions ranked by frequency, merged across fields with RRF', 'SuggestResponse'), jsonBody('SuggestRequest', true)),
      get: read('Completion suggestions, the request in query parameters', ok('suggestions ranked by frequency, merged across fields with RRF', 'SuggestResponse'), {
        parameters: [
          indexParam,
          { name: 'q', in: 'query', required: false, schema: { type: 'string', maxLength: 1000 }, description: 'the typed text; the last word may be partial' },
          { name: 'fields', in: 'query', required: false, schema: { type: 'string' }, description: 'comma-separated suggest fields (default: every suggest field)' },
          { name: 'count', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000 }, description: 'decimal digits only (default 10)' },
        ],
      }),
    },
    '/{index}/_mapping': { get: read('The index mapping', ok('mapping', 'Mapping')) },
    '/{index}/_stats': { get: read('Segments and their figures', ok('stats', 'IndexStats')) },
  };
}

/** Nixiesearch 0.8's `/v1` paths. */
export function v1Paths(): OpenApiObject {
  return {
    '/v1/index': { get: { summary: 'Served indexes and their aliases', security: readSecurity, responses: { 200: ok('indexes', 'IndexList'), 401: errorResponse('read tokens are configured and the request has none') } } },
    '/v1/index/{index}': {
      post: write('Index documents (as `_index`); answers `{"status":"ok","docs":N,"took":seconds}`', ok('every document is durable', 'V1IndexResult'), { requestBody: documentsBody }),
      get: read('The index mapping', ok('mapping', 'Mapping')),
    },
    '/v1/index/{index}/flush': { post: write('Commit the index to disk', ok('committed', 'V1Status')) },
    '/v1/index/{index}/merge': { post: write('Merge segments (optionally down to `segments`), then commit', ok('merged', 'V1Status'), jsonBody('MergeRequest')) },
    '/v1/index/{index}/delete': { post: write('Delete the documents matching a filter (a request without filters is a 400)', ok('deleted', 'V1DeleteResult'), jsonBody('DeleteRequest', true)) },
    '/v1/index/{index}/doc/{id}': { delete: write('Delete one document by _id', ok('deleted is 0 or 1', 'V1DeleteResult'), { parameters: [indexParam, docIdParam] }) },
    '/v1/index/{index}/search': { post: read('Search; `fields` defaults to `_id` and `_score`, the answer carries `took` and `ts` as in 0.8', ok('hits', 'V1SearchResponse'), jsonBody('SearchRequest')) },
    '/v1/index/{index}/suggest': { post: read('Completion suggestions', ok('suggestions', 'SuggestResponse'), jsonBody('SuggestRequest', true)) },
    '/v1/index/{index}/stats': { get: read('Segments and their figures', ok('stats', 'IndexStats')) },
    '/v1/system/config': { get: { summary: 'The active config as JSON, secrets (tokens, keys) redacted', security: readSecurity, responses: { 200: { description: 'config', ...json({ type: 'object' }) }, 401: errorResponse('read tokens are configured and the request has none') } } },
  };
}
