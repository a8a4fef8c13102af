/**
 * The mapping model: what each field of an index is (type, flags, analyzer), parsed from the
 * config's `schema.<index>` section (SPEC §2) with errors that name the full path, and a JSON form
 * for the index manifest.
 */
import { analyzerNames } from '../analysis/analyzers.js';
import { ErrorCode, YarrowError } from '../errors.js';

const baseTypes = ['id', 'text', 'int', 'long', 'float', 'double', 'bool', 'date', 'datetime'] as const;

/** A field type without its `[]` suffix. */
export type BaseType = (typeof baseTypes)[number];

/** Every type name accepted in a mapping, in the order error messages list them. */
export const fieldTypes: readonly string[] = Object.freeze([
  'id',
  'text',
  'text[]',
  ...baseTypes.slice(2),
  ...baseTypes.slice(2).map((t) => `${t}[]`),
]);

/** One field of a mapping. */
export interface FieldMapping {
  /** e.g. "title", or "meta.author" for `doc.meta.author`. */
  readonly name: string;
  /** The type as written, e.g. "text[]". */
  readonly type: string;
  /** The type without `[]`: "text" for "text[]". */
  readonly baseType: BaseType;
  /** Whether the field may hold several values ([] types). */
  readonly multi: boolean;
  readonly store: boolean;
  readonly filter: boolean;
  readonly facet: boolean;
  readonly sort: boolean;
  readonly required: boolean;
  /** Analyzer name when the field is full-text searchable, else null. Only text fields can be searchable. */
  readonly analyzer: string | null;
}

/** All fields of an index. */
export interface Mapping {
  /** Fields in declaration order; always includes `_id`. */
  readonly fields: readonly FieldMapping[];
  /** The field with this exact name (dotted names included), if mapped. */
  field(name: string): FieldMapping | undefined;
}

const specKeys = ['type', 'store', 'filter', 'facet', 'sort', 'required', 'search'];
const jsonKeys = ['name', 'type', 'store', 'filter', 'facet', 'sort', 'required', 'analyzer'] as const;
const defaultAnalyzer = 'standard';

/**
 * Parses the schema entry of one index (`{ fields: { <name>: <fieldSpec> } }`, as the YAML gives
 * it). `path` is where that entry sits in the config (e.g. `schema.movies`) and prefixes every
 * error: `schema.movies.fields.year.type: expected one of ... but got "integer"`.
 * @throws YarrowError(ErrorCode.invalidMapping) with `details.field` set to the offending path.
 */
export function parseMapping(raw: unknown, path: string): Mapping {
  const root = object(raw, path);
  checkKeys(root, ['fields'], path);
  const fieldsPath = `${path}.fields`;
  const specs = object(root.fields, fieldsPath);
  const fields: FieldMapping[] = [];
  for (const name of Object.keys(specs)) fields.push(parseField(name, specs[name], `${fieldsPath}.${name}`));
  if (!fields.some((f) => f.name === '_id')) fields.unshift(idField());
  checkNesting(fields, (f) => `${fieldsPath}.${f.name}`);
  return new FieldTable(fields);
}

function parseField(name: string, raw: unknown, path: string): FieldMapping {
  checkName(name, path);
  const spec = object(raw, path);
  checkKeys(spec, specKeys, path);
  const type = spec.type;
  if (typeof type !== 'string' || !fieldTypes.includes(type)) {
    throw mappingError(`${path}.type`, `expected one of ${fieldTypes.join(', ')} but got ${show(type)}`);
  }
  const { baseType, multi } = splitType(type);
  checkIdType(name, baseType, `${path}.type`);
  let analyzer: string | null = null;
  if (baseType === 'text') analyzer = parseSearch(spec.search, `${path}.search`);
  else if (spec.search !== undefined && spec.search !== false) {
    throw mappingError(`${path}.search`, `only text fields are full-text searchable, so ${type} allows only false but got ${show(spec.search)}`);
  }
  return {
    name,
    type,
    baseType,
    multi,
    store: flag(spec, 'store', true, path),
    filter: flag(spec, 'filter', false, path),
    facet: flag(spec, 'facet', false, path),
    sort: flag(spec, 'sort', false, path),
    required: flag(spec, 'required', false, path),
    analyzer,
  };
}

/** `search` is `true`/absent (standard analyzer), `false` (none) or `{ lexical: { analyze } }`. */
function parseSearch(raw: unknown, path: string): string | null {
  if (raw === undefined || raw === true) return defaultAnalyzer;
  if (raw === false) return null;
  const search = object(raw, path);
  checkKeys(search, ['lexical'], path);
  const lexical = object(search.lexical, `${path}.lexical`);
  checkKeys(lexical, ['analyze'], `${path}.lexical`);
  const analyze = lexical.analyze ?? defaultAnalyzer;
  if (typeof analyze !== 'string' || !analyzerNames.includes(analyze)) {
    throw mappingError(`${path}.lexical.analyze`, `expected one of ${analyzerNames.join(', ')} but got ${show(analyze)}`);
  }
  return analyze;
}

function flag(spec: Record<string, unknown>, key: string, fallback: boolean, path: string): boolean {
  const v = spec[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw mappingError(`${path}.${key}`, `expected true or false but got ${show(v)}`);
  return v;
}

function checkName(name: string, path: string): void {
  if (name === '') throw mappingError(path, 'field names must not be empty');
  for (const part of name.split('.')) {
    if (part === '') throw mappingError(path, `field name "${name}" has an empty segment between dots`);
    // Such keys would reach the prototype when documents are read or stored.
    if (part === '__proto__') throw mappingError(path, 'field names must not contain "__proto__"');
  }
}

function checkIdType(name: string, baseType: BaseType, path: string): void {
  if (name === '_id' && baseType !== 'id') throw mappingError(path, 'the _id field must have type id');
  if (name !== '_id' && baseType === 'id') throw mappingError(path, 'type id is reserved for the _id field');
}

/** "meta" and "meta.author" cannot both be fields: the first would have to be an object. */
function checkNesting(fields: readonly FieldMapping[], pathOf: (f: FieldMapping) => string): void {
  const names = new Set(fields.map((f) => f.name));
  for (const f of fields) {
    for (let dot = f.name.indexOf('.'); dot >= 0; dot = f.name.indexOf('.', dot + 1)) {
      const parent = f.name.slice(0, dot);
      if (names.has(parent)) throw mappingError(pathOf(f), `conflicts with field "${parent}", which would have to be an object`);
    }
  }
}

function splitType(type: string): { baseType: BaseType; multi: boolean } {
  const multi = type.endsWith('[]');
  return { baseType: (multi ? type.slice(0, -2) : type) as BaseType, multi };
}

function idField(): FieldMapping {
  return { name: '_id', type: 'id', baseType: 'id', multi: false, store: true, filter: false, facet: false, sort: false, required: false, analyzer: null };
}

/** The one Mapping implementation: frozen fields plus a name index. */
class FieldTable implements Mapping {
  readonly fields: readonly FieldMapping[];
  private readonly byName: ReadonlyMap<string, FieldMapping>;

  constructor(fields: readonly FieldMapping[]) {
    this.fields = Object.freeze(fields.map((f) => Object.freeze({ ...f })));
    this.byName = new Map(this.fields.map((f) => [f.name, f]));
  }

  field(name: string): FieldMapping | undefined {
    return this.byName.get(name);
  }
}

/**
 * The manifest form of a mapping: `{ fields: [{ name, type, store, filter, facet, sort, required,
 * analyzer }] }` in declaration order, every flag explicit so that later default changes never
 * reinterpret an existing index. Two mappings are equal when their JSON forms are.
 */
export function mappingToJson(m: Mapping): unknown {
  return {
    fields: m.fields.map((f) => ({
      name: f.name,
      type: f.type,
      store: f.store,
      filter: f.filter,
      facet: f.facet,
      sort: f.sort,
      required: f.required,
      analyzer: f.analyzer,
    })),
  };
}

/**
 * Inverse of {@link mappingToJson}; validates as strictly as {@link parseMapping} since a manifest
 * may come from another version or a damaged file.
 * @throws YarrowError(ErrorCode.invalidMapping) naming the path under `mapping`.
 */
export function mappingFromJson(json: unknown): Mapping {
  const root = object(json, 'mapping');
  checkKeys(root, ['fields'], 'mapping');
  if (!Array.isArray(root.fields)) throw mappingError('mapping.fields', `expected an array but got ${show(root.fields)}`);
  const items: readonly unknown[] = root.fields;
  const fields = items.map((item, i) => fieldFromJson(item, `mapping.fields[${i}]`));
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    if (seen.has(f.name)) throw mappingError(`mapping.fields[${i}].name`, `duplicate field "${f.name}"`);
    seen.add(f.name);
  });
  if (!seen.has('_id')) throw mappingError('mapping.fields', 'the _id field is missing');
  checkNesting(fields, (f) => `mapping.fields[${fields.indexOf(f)}]`);
  return new FieldTable(fields);
}

function fieldFromJson(json: unknown, path: string): FieldMapping {
  const o = object(json, path);
  checkKeys(o, jsonKeys, path);
  for (const key of jsonKeys) if (!(key in o)) throw mappingError(`${path}.${key}`, 'missing');
  const { name, type, analyzer } = o;
  if (typeof name !== 'string') throw mappingError(`${path}.name`, `expected a string but got ${show(name)}`);
  checkName(name, `${path}.name`);
  if (typeof type !== 'string' || !fieldTypes.includes(type)) {
    throw mappingError(`${path}.type`, `expected one of ${fieldTypes.join(', ')} but got ${show(type)}`);
  }
  const { baseType, multi } = splitType(type);
  checkIdType(name, baseType, `${path}.type`);
  if (analyzer !== null && (typeof analyzer !== 'string' || baseType !== 'text')) {
    throw mappingError(`${path}.analyzer`, `expected ${baseType === 'text' ? 'an analyzer name or null' : 'null'} but got ${show(analyzer)}`);
  }
  const flags = { store: false, filter: false, facet: false, sort: false, required: false };
  for (const key of ['store', 'filter', 'facet', 'sort', 'required'] as const) {
    const v = o[key];
    if (typeof v !== 'boolean') throw mappingError(`${path}.${key}`, `expected true or false but got ${show(v)}`);
    flags[key] = v;
  }
  return { name, type, baseType, multi, ...flags, analyzer };
}

function object(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw mappingError(path, `expected an object but got ${show(v)}`);
  return v as Record<string, unknown>;
}

function checkKeys(o: Record<string, unknown>, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) {
      const expected = allowed.length === 1 ? `"${allowed[0]}"` : `one of ${allowed.join(', ')}`;
      throw mappingError(`${path}.${key}`, `unknown key; expected ${expected}`);
    }
  }
}

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'object') return Array.isArray(v) ? 'an array' : 'an object';
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? JSON.stringify(v) : typeof v;
}

function mappingError(path: string, reason: string): YarrowError {
  return new YarrowError(ErrorCode.invalidMapping, `${path}: ${reason}`, { field: path });
}
