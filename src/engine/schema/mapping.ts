/**
 * The mapping model: what each field of an index is (type, flags, analyzer, suggest and semantic
 * options), parsed from the config's `schema.<index>` section (SPEC §2, Nixiesearch 0.8's field
 * shapes) with every problem reported at once under its full path, and its JSON form in the index
 * manifest.
 */
import { compilePattern, fieldNameProblem, isWildcardName, patternMatches } from './field-name.js';
import { FieldTable, fieldTypes } from './field-table.js';
import type { BaseType, FieldMapping, Mapping } from './field-table.js';
import { MappingProblems, show } from './mapping-problems.js';
import { parseSearch, parseSuggest } from './text-options.js';
import type { SemanticMapping, SuggestMapping } from './text-options.js';

export { FieldTable, fieldTypes } from './field-table.js';
export type { BaseType, FieldMapping, Mapping } from './field-table.js';

/** Nixiesearch's other spellings of a type. */
const typeAliases: Readonly<Record<string, string>> = { string: 'text', 'string[]': 'text[]' };

const specKeys = ['type', 'store', 'filter', 'facet', 'sort', 'required', 'search', 'suggest'];
const specHints = {
  language: 'write search: { lexical: { analyze: <language> } }',
  index: 'use search, filter, facet or sort',
};
const indexHints = {
  hnsw: 'HNSW settings are per field: search: { semantic: { m, ef, workers } }',
};

/**
 * Parses the schema entry of one index (`{ fields: { <name>: <fieldSpec> } }`, as the YAML gives
 * it; `fields` may also be a list of one-key maps). `path` is where that entry sits in the config
 * (e.g. `schema.movies`) and prefixes every error.
 * @throws YarrowError(ErrorCode.invalidMapping) listing every problem, `details.field` naming the first.
 */
export function parseMapping(raw: unknown, path: string): Mapping {
  const problems = new MappingProblems();
  const mapping = checkMapping(raw, path, problems);
  problems.throwIfAny();
  return mapping!;
}

/**
 * Like {@link parseMapping} but records problems into `problems` (the config loader reports those
 * of every index at once); returns undefined when the entry is not even an object with fields.
 */
export function checkMapping(raw: unknown, path: string, problems: MappingProblems): Mapping | undefined {
  const root = problems.object(raw, path);
  if (root === undefined) return undefined;
  problems.keys(root, ['fields'], path, indexHints);
  const fieldsPath = `${path}.fields`;
  const entries = fieldEntries(root.fields, fieldsPath, problems);
  if (entries === undefined) return undefined;
  const fields: FieldMapping[] = [];
  const paths = new Map<FieldMapping, string>();
  for (const [name, spec, fieldPath] of entries) {
    const f = parseField(name, spec, fieldPath, problems);
    if (f === undefined) continue;
    fields.push(f);
    paths.set(f, fieldPath);
  }
  if (!fields.some((f) => f.name === '_id')) fields.unshift(idField());
  checkStructure(fields, (f) => paths.get(f) ?? `${fieldsPath}.${f.name}`, problems);
  return new FieldTable(fields);
}

/** `fields` as [name, spec, path] triples, from a map or from Nixiesearch's list-of-maps form. */
function fieldEntries(raw: unknown, path: string, problems: MappingProblems): [string, unknown, string][] | undefined {
  if (!Array.isArray(raw)) {
    const specs = problems.object(raw, path);
    return specs === undefined ? undefined : Object.keys(specs).map((name) => [name, specs[name], `${path}.${name}`]);
  }
  const out: [string, unknown, string][] = [];
  const seen = new Set<string>();
  (raw as unknown[]).forEach((item, i) => {
    const entry = problems.object(item, `${path}[${i}]`);
    if (entry === undefined) return;
    const names = Object.keys(entry);
    if (names.length !== 1) {
      problems.add(`${path}[${i}]`, `expected one field per list item ({ <name>: { type: ... } }) but got ${names.length} keys`);
      return;
    }
    if (seen.has(names[0])) problems.add(`${path}[${i}].${names[0]}`, `duplicate field "${names[0]}"`);
    seen.add(names[0]);
    out.push([names[0], entry[names[0]], `${path}[${i}].${names[0]}`]);
  });
  return out;
}

function parseField(name: string, raw: unknown, path: string, problems: MappingProblems): FieldMapping | undefined {
  const nameProblem = fieldNameProblem(name);
  if (nameProblem !== null) {
    problems.add(path, nameProblem);
    return undefined;
  }
  const spec = problems.object(raw, path);
  if (spec === undefined) return undefined;
  problems.keys(spec, specKeys, path, specHints);
  let type = typeof spec.type === 'string' ? (typeAliases[spec.type] ?? spec.type) : spec.type;
  // Nixiesearch reads `_id: { type: text }` as the id field.
  if (name === '_id' && type === 'text') type = 'id';
  if (typeof type !== 'string' || !fieldTypes.includes(type)) {
    problems.add(`${path}.type`, `expected one of ${fieldTypes.join(', ')} but got ${show(spec.type)}`);
    return undefined;
  }
  const { baseType, multi } = splitType(type);
  const idProblem = idTypeProblem(name, baseType);
  if (idProblem !== null) problems.add(`${path}.type`, idProblem);
  let analyzer: string | null = null;
  let semantic: SemanticMapping | null = null;
  let suggest: SuggestMapping | null = null;
  if (baseType === 'text') {
    ({ analyzer, semantic } = parseSearch(spec.search, `${path}.search`, problems));
    suggest = parseSuggest(spec.suggest, `${path}.suggest`, problems);
  } else {
    if (spec.search !== undefined && spec.search !== false) {
      problems.add(`${path}.search`, `only text fields are searchable, so ${type} allows only false but got ${show(spec.search)}`);
    }
    if (spec.suggest !== undefined && spec.suggest !== false) {
      problems.add(`${path}.suggest`, `only text fields give suggestions, so ${type} allows only false but got ${show(spec.suggest)}`);
    }
  }
  return {
    name,
    type,
    baseType,
    multi,
    store: problems.flag(spec, 'store', true, path),
    filter: problems.flag(spec, 'filter', false, path),
    facet: problems.flag(spec, 'facet', false, path),
    sort: problems.flag(spec, 'sort', false, path),
    required: problems.flag(spec, 'required', false, path),
    analyzer,
    suggest,
    semantic,
  };
}

/** Why `_id` and type `id` do not fit together, or null. */
export function idTypeProblem(name: string, baseType: BaseType): string | null {
  if (name === '_id' && baseType !== 'id') return 'the _id field must have type id';
  if (name !== '_id' && baseType === 'id') return 'type id is reserved for the _id field';
  return null;
}

/**
 * Whole-mapping rules: "meta" and "meta.author" cannot both be fields (the first would have to be
 * an object), and a plain field may not match a wildcard pattern (as in Nixiesearch: which
 * mapping would win is not obvious).
 */
export function checkStructure(fields: readonly FieldMapping[], pathOf: (f: FieldMapping) => string, problems: MappingProblems): void {
  const names = new Set(fields.map((f) => f.name));
  const patterns = fields.filter((f) => isWildcardName(f.name)).map((f) => compilePattern(f.name));
  for (const f of fields) {
    for (let dot = f.name.indexOf('.'); dot >= 0; dot = f.name.indexOf('.', dot + 1)) {
      const parent = f.name.slice(0, dot);
      if (names.has(parent)) problems.add(pathOf(f), `conflicts with field "${parent}", which would have to be an object`);
    }
    if (isWildcardName(f.name)) continue;
    const match = patterns.find((p) => patternMatches(p, f.name));
    if (match !== undefined) problems.add(pathOf(f), `also matches the wildcard field "${match.pattern}": rename one of them`);
  }
}

/** "text[]" -> text, multi. */
export function splitType(type: string): { baseType: BaseType; multi: boolean } {
  const multi = type.endsWith('[]');
  return { baseType: (multi ? type.slice(0, -2) : type) as BaseType, multi };
}

function idField(): FieldMapping {
  return { name: '_id', type: 'id', baseType: 'id', multi: false, store: true, filter: false, facet: false, sort: false, required: false, analyzer: null, suggest: null, semantic: null };
}


const jsonKeys = ['name', 'type', 'store', 'filter', 'facet', 'sort', 'required', 'analyzer'] as const;
const optionalJsonKeys = ['suggest', 'semantic'] as const;

/**
 * The manifest form of a mapping: `{ fields: [{ name, type, store, filter, facet, sort, required,
 * analyzer, suggest?, semantic? }] }` in declaration order, every flag explicit so that later
 * default changes never reinterpret an existing index (`suggest` and `semantic` only when set, so
 * manifests of indexes without them stay as they were). Two mappings are equal when their JSON
 * forms are.
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
      ...(f.suggest === null ? {} : { suggest: { ...f.suggest } }),
      ...(f.semantic === null ? {} : { semantic: { ...f.semantic } }),
    })),
  };
}

/**
 * Inverse of {@link mappingToJson}; validates as strictly as {@link parseMapping} since a manifest
 * may come from another version or a damaged file.
 * @throws YarrowError(ErrorCode.invalidMapping) naming the path under `mapping`.
 */
export function mappingFromJson(json: unknown): Mapping {
  const problems = new MappingProblems();
  const root = problems.object(json, 'mapping');
  problems.throwIfAny();
  problems.keys(root!, ['fields'], 'mapping');
  problems.throwIfAny();
  if (!Array.isArray(root!.fields)) problems.add('mapping.fields', `expected an array but got ${show(root!.fields)}`);
  problems.throwIfAny();
  const items = root!.fields as readonly unknown[];
  const fields: FieldMapping[] = [];
  items.forEach((item, i) => {
    const f = fieldFromJson(item, `mapping.fields[${i}]`, problems);
    if (f !== undefined) fields.push(f);
  });
  problems.throwIfAny();
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    if (seen.has(f.name)) problems.add(`mapping.fields[${i}].name`, `duplicate field "${f.name}"`);
    seen.add(f.name);
  });
  if (!seen.has('_id')) problems.add('mapping.fields', 'the _id field is missing');
  checkStructure(fields, (f) => `mapping.fields[${fields.indexOf(f)}]`, problems);
  problems.throwIfAny();
  return new FieldTable(fields);
}

function fieldFromJson(json: unknown, path: string, problems: MappingProblems): FieldMapping | undefined {
  const o = problems.object(json, path);
  if (o === undefined) return undefined;
  problems.keys(o, [...jsonKeys, ...optionalJsonKeys], path);
  for (const key of jsonKeys) if (!(key in o)) problems.add(`${path}.${key}`, 'missing');
  const { name, type, analyzer } = o;
  if (typeof name !== 'string') {
    if (name !== undefined) problems.add(`${path}.name`, `expected a string but got ${show(name)}`);
    return undefined;
  }
  const nameProblem = fieldNameProblem(name);
  if (nameProblem !== null) problems.add(`${path}.name`, nameProblem);
  if (typeof type !== 'string' || !fieldTypes.includes(type)) {
    problems.add(`${path}.type`, `expected one of ${fieldTypes.join(', ')} but got ${show(type)}`);
    return undefined;
  }
  const { baseType, multi } = splitType(type);
  const idProblem = idTypeProblem(name, baseType);
  if (idProblem !== null) problems.add(`${path}.type`, idProblem);
  if (analyzer !== undefined && analyzer !== null && (typeof analyzer !== 'string' || baseType !== 'text')) {
    problems.add(`${path}.analyzer`, `expected ${baseType === 'text' ? 'an analyzer name or null' : 'null'} but got ${show(analyzer)}`);
  }
  const flags = { store: false, filter: false, facet: false, sort: false, required: false };
  for (const key of ['store', 'filter', 'facet', 'sort', 'required'] as const) {
    const v = o[key];
    if (typeof v === 'boolean') flags[key] = v;
    else if (v !== undefined) problems.add(`${path}.${key}`, `expected true or false but got ${show(v)}`);
  }
  // The JSON forms of suggest and semantic are the parsed objects; re-parse them from their
  // config spelling so a damaged manifest is caught by the same rules.
  const suggest = o.suggest === undefined ? null : suggestFromJson(o.suggest, `${path}.suggest`, problems);
  const semantic = o.semantic === undefined ? null : semanticFromJson(o.semantic, `${path}.semantic`, problems);
  return { name, type, baseType, multi, ...flags, analyzer: typeof analyzer === 'string' ? analyzer : null, suggest, semantic };
}

function suggestFromJson(json: unknown, path: string, problems: MappingProblems): SuggestMapping | null {
  const o = problems.object(json, path);
  if (o === undefined) return null;
  problems.keys(o, ['lowercase', 'minTerms', 'maxTerms', 'analyzer'], path);
  return parseSuggest({ lowercase: o.lowercase, expand: { 'min-terms': o.minTerms, 'max-terms': o.maxTerms }, analyze: o.analyzer }, path, problems);
}

function semanticFromJson(json: unknown, path: string, problems: MappingProblems): SemanticMapping | null {
  const o = problems.object(json, path);
  if (o === undefined) return null;
  const spec: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== null) spec[k] = v;
  return parseSearch({ semantic: spec }, path.replace(/\.semantic$/, ''), problems).semantic;
}
