/**
 * `/openapi.json` (issue 18): a valid OpenAPI 3.1 document, alone and merged with the plant store,
 * that documents every path and method the server knows, so that a new route without
 * documentation fails here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { allowedMethods, KNOWN_PATHS } from '../../src/api/server.js';
import { openApiDocument } from '../../src/api/openapi.js';
import type { ServerRole } from '../../src/api/route-context.js';
import { mergeOpenApi, plantContract } from '../../src/plants/index.js';

/** What the validator takes (its own type comes from a package Yarrow does not depend on directly). */
type ApiDocument = Exclude<Parameters<typeof SwaggerParser.validate>[0], string>;

type Paths = Record<string, Record<string, { security?: unknown; responses?: Record<string, unknown> }>>;

const ROLES: readonly ServerRole[] = ['standalone', 'api', 'search'];

/** A concrete request path for a documented template (`/{index}/_search` -> `/movies/_search`). */
function instantiate(template: string): string {
  const values: Record<string, string> = { index: 'movies', id: 'doc-1', model: 'minilm', file: 'app-1a2b.js' };
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? 'x');
}

function paths(role: ServerRole): Paths {
  return openApiDocument(role, '0.0.0-test').paths as Paths;
}

describe('openApiDocument', () => {
  for (const role of ROLES) {
    it(`is a valid OpenAPI 3.1 document in ${role} mode, alone and merged with the plant store`, async () => {
      // validate() dereferences in place: each check gets its own copy.
      await SwaggerParser.validate(structuredClone(openApiDocument(role, '1.2.3')) as ApiDocument);
      const merged = JSON.parse(mergeOpenApi(openApiDocument(role, '1.2.3'), plantContract().document)) as ApiDocument;
      await SwaggerParser.validate(merged);
    });
  }

  it('fails validation for a broken document (the validator is not a no-op)', async () => {
    const broken = structuredClone(openApiDocument('standalone', '1.2.3')) as { paths: Paths };
    broken.paths['/{index}/_flush'].post.responses = { 200: { content: {} } };
    await assert.rejects(SwaggerParser.validate(broken as unknown as ApiDocument), /description|must have required property/);
  });

  it('documents every path and method of KNOWN_PATHS (a new route without documentation fails here)', () => {
    const documented = Object.entries(paths('standalone'));
    for (const known of KNOWN_PATHS) {
      const matching = documented.filter(([template]) => {
        const path = instantiate(template);
        // The template stands for this entry: its concrete path is matched by it, and first.
        return known.pattern.test(path) && allowedMethods(path) === known.methods;
      });
      assert.ok(matching.length > 0, `${known.pattern.source} (${known.methods.join(', ')}) is not in /openapi.json`);
      for (const method of known.methods.filter((m) => m !== 'HEAD')) {
        assert.ok(matching.some(([, item]) => method.toLowerCase() in item), `${method} ${known.pattern.source} is not in /openapi.json (documented: ${matching.map(([t, item]) => `${t} ${Object.keys(item).join('/')}`).join('; ')})`);
      }
    }
  });

  it('documents the legacy, /v1, suggest, delete, health, metrics, inference and UI routes', () => {
    const doc = paths('standalone');
    const expected: Record<string, string[]> = {
      '/{index}/_index': ['post', 'put'], '/{index}/_flush': ['post'], '/{index}/_search': ['post', 'get'], '/{index}/_suggest': ['post', 'get'],
      '/{index}/_delete': ['post'], '/{index}/_delete/{id}': ['delete'], '/{index}/_merge': ['post'], '/{index}/_mapping': ['get'], '/{index}/_stats': ['get'],
      '/{index}': ['get'], '/_health': ['get'], '/health': ['get'], '/_indexes': ['get'], '/metrics': ['get'], '/openapi.json': ['get'],
      '/inference/embedding/{model}': ['post'], '/': ['get'], '/ui/{file}': ['get'],
      '/v1/index/{index}': ['post', 'get'], '/v1/index/{index}/flush': ['post'], '/v1/index/{index}/merge': ['post'], '/v1/index/{index}/search': ['post'],
      '/v1/index/{index}/suggest': ['post'], '/v1/index/{index}/delete': ['post'], '/v1/index/{index}/doc/{id}': ['delete'], '/v1/index/{index}/stats': ['get'],
      '/v1/index': ['get'], '/v1/system/config': ['get'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      assert.ok(path in doc, `${path} is documented`);
      assert.deepEqual(Object.keys(doc[path]).sort(), [...methods].sort(), path);
    }
  });

  it('asks a write token of every write and none of health, metrics and this document', () => {
    for (const [path, item] of Object.entries(paths('standalone'))) {
      for (const [method, op] of Object.entries(item)) {
        const isWrite = method !== 'get' && !/_search$|\/search$|_suggest$|\/suggest$|\/inference\//.test(path);
        if (isWrite) {
          assert.deepEqual(op.security, [{ bearer: [] }], `${method} ${path} needs a write token`);
          assert.ok(op.responses !== undefined && '401' in op.responses && '403' in op.responses, `${method} ${path} documents 401 and 403`);
        }
      }
    }
    for (const path of ['/_health', '/health', '/metrics', '/openapi.json']) assert.deepEqual(paths('search')[path].get.security, [], path);
  });
});
