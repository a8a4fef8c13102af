/**
 * The OpenAPI 3.1 document served at `/openapi.json`: every endpoint, its parameters, bodies,
 * responses and the tokens it needs (parts in ./openapi/). Mounted modules (the plant store) merge
 * their own paths in. test/api/openapi.test.ts checks it against the OpenAPI 3.1 schema and against
 * the server's routes, so a route without documentation fails the tests.
 */
import { legacyIndexPaths, v1Paths } from './openapi/index-paths.js';
import { serviceSchemas } from './openapi/openapi-schemas.js';
import { systemPaths } from './openapi/system-paths.js';
import type { ServerRole } from './route-context.js';

/** The document for a server of `role`. */
export function openApiDocument(role: ServerRole, version: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Yarrow',
      version,
      description: `Yarrow search engine HTTP API (this server runs in ${role} mode). Writes are served by api and standalone, searches by standalone and search; `
        + 'the legacy `/{index}/_x` routes answer in the seed\'s shapes, the `/v1` routes in Nixiesearch 0.8\'s. With `api.auth` tokens configured every write needs a write token; '
        + 'with read tokens configured, reads need a token too.',
    },
    paths: { ...systemPaths(role), ...legacyIndexPaths(), ...v1Paths() },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'a token of api.auth (tokens, write_tokens or read_tokens)' } },
      schemas: serviceSchemas,
    },
  };
}
