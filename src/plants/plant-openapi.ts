/**
 * The plant store's OpenAPI document (openapi/plants.openapi.json, the source of truth): loaded
 * once with exact numbers (its int64 bounds do not survive JSON.parse), checked to use only what the
 * validator enforces, and merged with the service's own document for `/openapi.json`.
 */
import { readFileSync } from 'node:fs';
import { parse, stringify } from 'lossless-json';
import type { JsonSchema } from './json-schema-check.js';
import { assertSupportedSchema } from './json-schema-check.js';

/** Where the document lives, next to this module in src/ and in dist/ alike (the build copies it). */
export const PLANT_DOCUMENT_URL = new URL('./openapi/plants.openapi.json', import.meta.url);

type Json = Record<string, unknown>;

/** The parts of the document the routes validate against. */
export interface PlantContract {
  /** The whole document, numbers as LosslessNumbers. */
  readonly document: Json;
  readonly newPlant: JsonSchema;
  readonly idParameter: JsonSchema;
  readonly limitParameter: JsonSchema;
}

function at(doc: Json, path: readonly string[]): unknown {
  let node: unknown = doc;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) throw new Error(`the plant store's OpenAPI document has no ${path.join('.')}`);
    node = (node as Json)[key];
  }
  return node;
}

function parameterSchema(doc: Json, path: readonly string[], name: string): JsonSchema {
  const params = at(doc, path) as readonly Json[];
  const param = params.find((p) => p.name === name);
  if (param === undefined) throw new Error(`the plant store's OpenAPI document has no parameter ${name} at ${path.join('.')}`);
  const schema = param.schema as JsonSchema;
  assertSupportedSchema(schema, `${path.join('.')}.${name}`);
  return schema;
}

/** Parses the document text and extracts what validation needs; throws on an unsupported schema. */
export function parsePlantContract(text: string): PlantContract {
  const document = parse(text) as Json;
  const newPlant = at(document, ['components', 'schemas', 'NewPlant']) as JsonSchema;
  assertSupportedSchema(newPlant, 'components.schemas.NewPlant');
  return {
    document,
    newPlant,
    idParameter: parameterSchema(document, ['paths', '/plants/{id}', 'parameters'], 'id'),
    limitParameter: parameterSchema(document, ['paths', '/plants', 'get', 'parameters'], 'limit'),
  };
}

let loaded: PlantContract | null = null;

/** The contract from the document shipped with this build (read once). */
export function plantContract(): PlantContract {
  loaded ??= parsePlantContract(readFileSync(PLANT_DOCUMENT_URL, 'utf8'));
  return loaded;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * One document for `/openapi.json`: the plant store's (its info, MIT license, and bearerAuth as the
 * top-level security requirement) plus the service's paths and schemas. The service's operations
 * need no token unless the config sets some (the description says so; each operation names the
 * `bearer` tokens it takes in its own `security`, one without says an empty one); the service's
 * info moves to `x-yarrow-service`. Returned as text, so the int64 bounds stay exact.
 */
export function mergeOpenApi(service: Json, plants: Json): string {
  const servicePaths = service.paths as Record<string, Json>;
  const paths: Record<string, Json> = {};
  for (const [path, item] of Object.entries(servicePaths)) {
    const open: Json = {};
    // An operation keeps its own requirement (the service's are the `bearer` scheme); none means open.
    for (const [key, value] of Object.entries(item)) open[key] = METHODS.includes(key) ? { security: [], ...(value as Json) } : value;
    paths[path] = open;
  }
  const plantPaths = plants.paths as Json;
  for (const path of Object.keys(plantPaths)) if (Object.hasOwn(paths, path)) throw new Error(`path ${path} is in both OpenAPI documents`);
  const serviceComponents = (service.components ?? {}) as Record<string, Json>;
  const plantComponents = plants.components as Record<string, Json>;
  const components: Record<string, Json> = { ...plantComponents };
  for (const [kind, entries] of Object.entries(serviceComponents)) {
    for (const name of Object.keys(entries)) if (Object.hasOwn(components[kind] ?? {}, name)) throw new Error(`components.${kind}.${name} is in both OpenAPI documents`);
    components[kind] = { ...(components[kind] ?? {}), ...entries };
  }
  const info = plants.info as Json;
  const merged = {
    ...plants,
    info: { ...info, title: 'Yarrow', description: `${String(info.description)}\n\nThe service's own endpoints need a bearer token only when the config's api.auth sets tokens: writes (indexing, flush) then need a write token, and reads need one once read tokens are set; health, metrics and this document never do.`, 'x-yarrow-service': service.info },
    paths: { ...paths, ...plantPaths },
    components,
  };
  const text = stringify(merged);
  if (text === undefined) throw new Error('the merged OpenAPI document cannot be serialised');
  return text;
}
