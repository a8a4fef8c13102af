/**
 * The service paths of `/openapi.json`: the search page and its assets, health, the index list,
 * metrics, this document and the embedding endpoint. They need no token, except the index list and
 * embeddings, which are reads.
 */
import type { ServerRole } from '../route-context.js';
import type { OpenApiObject } from './openapi-parts.js';
import { authResponses, errorResponse, json, readSecurity, ref } from './openapi-parts.js';

/** The service paths as `role` serves them (`GET /` is the search page, or server info in api mode). */
export function systemPaths(role: ServerRole): OpenApiObject {
  const health = (summary: string): OpenApiObject => ({ get: { summary, security: [], responses: { 200: { description: 'ok or degraded (with each index\'s reason, no file paths)', ...json(ref('Health')) } } } });
  return {
    '/': {
      get: role === 'api'
        ? { summary: 'Server info', security: [], responses: { 200: { description: 'name, version, mode, indexes', ...json({ type: 'object', properties: { name: { type: 'string' }, version: { type: 'string' }, mode: { type: 'string' }, indexes: { type: 'array', items: { type: 'string' } } } }) } } }
        : { summary: 'The search page (assets under /ui/)', security: [], responses: { 200: { description: 'the page', content: { 'text/html': { schema: { type: 'string' } } } } } },
    },
    '/ui/{file}': {
      get: {
        summary: 'The search page\'s script, stylesheet and source maps (standalone, search)',
        security: [],
        parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string', pattern: '^[\\w.-]+\\.(js|css|map)$' } }],
        responses: { 200: { description: 'the file (content-hashed name, cacheable for a year)' }, 404: errorResponse('no such file') },
      },
    },
    '/_health': health('Liveness and freshness: degraded while a writer is failed or a followed index cannot poll for new commits'),
    '/health': health('The same as /_health, at the path Kubernetes probes and Nixiesearch 0.8 clients call'),
    '/_indexes': { get: { summary: 'The served indexes with their figures', security: readSecurity, responses: { 200: { description: 'indexes', ...json({ type: 'object', required: ['indexes'], properties: { indexes: { type: 'array', items: ref('IndexFigures') } } }) }, 401: errorResponse('read tokens are configured and the request has none') } } },
    '/metrics': { get: { summary: 'Prometheus metrics', security: [], responses: { 200: { description: 'Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } } } } },
    '/openapi.json': { get: { summary: 'This document', security: [], responses: { 200: { description: 'OpenAPI 3.1', ...json({ type: 'object' }) } } } },
    '/inference/embedding/{model}': {
      post: {
        summary: 'Embed texts with a configured model (Nixiesearch shape; `type` query/document applies the model\'s prompt prefix)',
        security: readSecurity,
        parameters: [{ name: 'model', in: 'path', required: true, schema: { type: 'string', minLength: 1 }, description: 'a key of inference.embedding in the config' }],
        requestBody: {
          required: true,
          ...json({ type: 'object', required: ['input'], properties: { input: { type: 'array', maxItems: 4096, items: { type: 'object', required: ['text'], properties: { text: { type: 'string' }, type: { enum: ['query', 'document', 'raw'] } } } } } }),
        },
        responses: {
          200: { description: 'one embedding per input', ...json({ type: 'object', required: ['output'], properties: { output: { type: 'array', items: { type: 'object', properties: { embedding: { type: 'array', items: { type: 'number' } } } } }, took: { type: 'number', description: 'milliseconds' } } }) },
          400: errorResponse('malformed request (names field, expected and actual)'),
          ...authResponses,
          404: errorResponse('no such model'),
          413: errorResponse('the body is larger than the limit'),
        },
      },
    },
  };
}
