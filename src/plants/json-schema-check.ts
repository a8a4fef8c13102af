/**
 * Checks a request value against a schema of the plant store's OpenAPI document, so that the
 * document stays the source of truth for validation. It understands the subset of JSON Schema the
 * document uses (object, string, integer; properties, required, additionalProperties: false,
 * minLength, maxLength, minimum, maximum, format) and refuses at load time any schema using more,
 * so that a keyword added to the document can never be silently ignored. Numbers arrive as
 * lossless-json LosslessNumbers and are compared exactly. Errors name the field, the expected and
 * the actual type.
 */
import { isLosslessNumber } from 'lossless-json';
import { INT64_MAX, INT64_MIN, integerOfLiteral } from './exact-integer.js';
import { badRequest } from './plant-error.js';

/** A schema object of the document (already `$ref`-resolved by the caller). */
export type JsonSchema = Readonly<Record<string, unknown>>;

const understood = new Set(['type', 'properties', 'required', 'additionalProperties', 'minLength', 'maxLength', 'minimum', 'maximum', 'format', 'description', 'default', 'examples']);
const types = new Set(['object', 'string', 'integer']);
const formats: Readonly<Record<string, readonly [bigint, bigint]>> = { int32: [-(2n ** 31n), 2n ** 31n - 1n], int64: [INT64_MIN, INT64_MAX] };

/**
 * Throws unless `schema` (and every property schema in it) uses only what {@link checkValue}
 * enforces.
 */
export function assertSupportedSchema(schema: JsonSchema, at: string): void {
  for (const key of Object.keys(schema)) if (!understood.has(key)) throw new Error(`${at}: keyword "${key}" is not enforced by the plant store's validator`);
  if (typeof schema.type !== 'string' || !types.has(schema.type)) throw new Error(`${at}: type must be one of ${[...types].join(', ')}`);
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) throw new Error(`${at}: additionalProperties may only be false`);
  const format = formatOf(schema);
  if (schema.format !== undefined && (format === undefined || !Object.hasOwn(formats, format))) throw new Error(`${at}: format ${JSON.stringify(schema.format)} is not enforced`);
  for (const [name, sub] of Object.entries(properties(schema))) assertSupportedSchema(sub, `${at}.properties.${name}`);
}

/** The schema's `format`, when it is a string. */
export function formatOf(schema: JsonSchema): string | undefined {
  return typeof schema.format === 'string' ? schema.format : undefined;
}

function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point, as JSON Schema counts length.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    n++;
  }
  return n;
}

function properties(schema: JsonSchema): Readonly<Record<string, JsonSchema>> {
  return (schema.properties ?? {}) as Record<string, JsonSchema>;
}

/** "string", "number 1.5", "array", ... for messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (isLosslessNumber(value)) return `number ${value.value}`;
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
  if (typeof value === 'object') return 'object';
  if (typeof value === 'boolean') return `boolean ${value}`;
  return typeof value;
}

/** The exact value of an integer keyword of the schema (`minimum`, `maxLength`...), as a bigint. */
function bound(raw: unknown): bigint | undefined {
  if (raw === undefined) return undefined;
  const text = isLosslessNumber(raw) ? raw.value : typeof raw === 'number' ? String(raw) : '';
  const n = integerOfLiteral(text);
  if (n === null) throw new Error(`schema keyword value ${JSON.stringify(text)} is not an integer`);
  return n;
}

function expectedInteger(schema: JsonSchema): { text: string; min: bigint | undefined; max: bigint | undefined } {
  const format = formatOf(schema);
  const range = format === undefined ? undefined : formats[format];
  const minimum = bound(schema.minimum);
  const maximum = bound(schema.maximum);
  const min = minimum !== undefined && (range === undefined || minimum > range[0]) ? minimum : range?.[0];
  const max = maximum !== undefined && (range === undefined || maximum < range[1]) ? maximum : range?.[1];
  const kind = format === undefined ? 'integer' : `integer (${format})`;
  const text = min === undefined && max === undefined ? kind : `${kind} from ${min ?? '-infinity'} to ${max ?? 'infinity'}`;
  return { text, min, max };
}

/** The integer in `value` if it is one in range, else a 400 naming `field`. */
export function checkInteger(schema: JsonSchema, value: unknown, field: string): bigint {
  const { text, min, max } = expectedInteger(schema);
  const n = isLosslessNumber(value) ? integerOfLiteral(value.value) : null;
  if (n === null) throw badRequest(`${field}: expected ${text}, got ${describeValue(value)}${isLosslessNumber(value) ? ' (not an integer)' : ''}`);
  if ((min !== undefined && n < min) || (max !== undefined && n > max)) throw badRequest(`${field}: expected ${text}, got number ${n} (out of range)`);
  return n;
}

/**
 * Checks `value` against `schema`; `field` names it in messages ("id", "request body").
 * @throws PlantError 400 naming the field, what was expected and what came.
 */
export function checkValue(schema: JsonSchema, value: unknown, field: string, title = 'object'): void {
  switch (schema.type) {
    case 'integer':
      checkInteger(schema, value, field);
      return;
    case 'string': {
      if (typeof value !== 'string') throw badRequest(`${field}: expected string, got ${describeValue(value)}`);
      const chars = codePoints(value);
      const min = bound(schema.minLength);
      const max = bound(schema.maxLength);
      if (min !== undefined && chars < min) throw badRequest(`${field}: expected a string of at least ${min} characters, got ${describeValue(value)}`);
      if (max !== undefined && chars > max) throw badRequest(`${field}: expected a string of at most ${max} characters, got a string of ${chars}`);
      return;
    }
    default:
      checkObject(schema, value, field, title);
  }
}

function checkObject(schema: JsonSchema, value: unknown, field: string, title: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isLosslessNumber(value)) {
    throw badRequest(`${field}: expected object (${title}), got ${describeValue(value)}`);
  }
  const record = value as Record<string, unknown>;
  const props = properties(schema);
  const prefix = field === 'request body' ? '' : `${field}.`;
  if (schema.additionalProperties === false) {
    for (const key of Object.keys(record)) {
      if (!Object.hasOwn(props, key)) throw badRequest(`${prefix}${key}: unknown field (${title} has ${Object.keys(props).join(', ')})`);
    }
  }
  for (const name of (schema.required ?? []) as string[]) {
    if (!Object.hasOwn(record, name)) throw badRequest(`${prefix}${name}: required field is missing (expected ${describeSchema(props[name])})`);
  }
  for (const [name, sub] of Object.entries(props)) {
    if (Object.hasOwn(record, name)) checkValue(sub, record[name], `${prefix}${name}`, name);
  }
}

function describeSchema(schema: JsonSchema | undefined): string {
  if (schema === undefined) return 'a value';
  return schema.type === 'integer' ? expectedInteger(schema).text : String(schema.type);
}
