/**
 * Turns zod issues into the one-line reasons Yarrow prints: `<dotted.path>: expected one of a, b but
 * got "c"`. zod's own messages name neither the allowed keys nor the value found, so this reads the
 * issue's fields and, for unknown keys, the schema itself.
 */
import type * as z from 'zod';

/** A readable problem at a dotted config path. */
export interface PathReason {
  readonly path: string;
  readonly reason: string;
}

type Issue = z.core.$ZodIssue;

/** Keys some Nixiesearch docs show where its code has no such key: where the setting really lives. */
const keyHints: Readonly<Record<string, string>> = {
  hnsw: 'HNSW settings are per field: search: { semantic: { m, ef, workers } }',
  cache: 'the embedding cache is set per model: inference.embedding.<model>.cache; the model cache directory is core.cache.dir',
};
type Segment = PropertyKey;

/** One issue as a dotted path and a reason; a union reports the branch that got furthest. */
export function describeIssue(issue: Issue, root: z.ZodType): PathReason {
  const path = dotted(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const key = issue.keys[0];
      const allowed = keysAt(root, issue.path);
      const expected = allowed === undefined ? '' : `; expected ${allowed.length === 1 ? `"${allowed[0]}"` : `one of ${allowed.join(', ')}`}`;
      const hint = Object.hasOwn(keyHints, key) ? ` (${keyHints[key]})` : '';
      return { path: join(path, key), reason: `unknown key${expected}${hint}` };
    }
    case 'invalid_value':
      return { path, reason: `expected ${oneOf(issue.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))))} but got ${show(issue.input)}` };
    case 'invalid_type':
      if (issue.input === undefined) return { path, reason: `missing (expected ${article(issue.expected)})` };
      return { path, reason: `expected ${article(issue.expected)} but got ${show(issue.input)}` };
    case 'invalid_union': {
      // Report the branch that got furthest: the one whose first issue has the longest path.
      const branches = issue.errors.filter((b) => b.length > 0);
      const deepest = branches.sort((a, b) => b[0].path.length - a[0].path.length)[0] as (typeof branches)[number] | undefined;
      if (deepest !== undefined && deepest[0].path.length > 0) {
        return describeIssue({ ...deepest[0], path: [...issue.path, ...deepest[0].path] }, root);
      }
      const expected = branches.map((b) => b[0]).filter((i) => i.code === 'invalid_type').map((i) => article(i.expected));
      return { path, reason: `expected ${oneOf(expected)} but got ${show(issue.input)}` };
    }
    case 'too_small':
      if (issue.origin === 'string') return { path, reason: 'must not be empty' };
      return { path, reason: issue.message };
    default:
      return { path, reason: issue.message };
  }
}

/** `["schema","movies","fields",0]` -> `schema.movies.fields[0]`. */
export function dotted(path: readonly Segment[]): string {
  let out = '';
  for (const seg of path) out = typeof seg === 'number' ? `${out}[${seg}]` : join(out, String(seg));
  return out;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function oneOf(items: readonly string[]): string {
  return items.length === 1 ? items[0] : `one of ${items.join(', ')}`;
}

function article(type: string): string {
  if (type === 'object') return 'an object';
  if (type === 'array') return 'a list';
  if (type === 'boolean') return 'true or false';
  return `a ${type}`;
}

/** A value as an error message shows it. */
export function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return JSON.stringify(v);
}

interface LooseDef {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly options?: readonly z.ZodType[];
}

/** The keys an object schema at `path` allows, walking through optional/default/record/union wrappers. */
function keysAt(schema: z.ZodType, path: readonly Segment[]): string[] | undefined {
  const def = schema._zod.def as unknown as LooseDef;
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
      return def.innerType === undefined ? undefined : keysAt(def.innerType, path);
    case 'pipe':
      return def.in === undefined ? undefined : keysAt(def.in, path);
    case 'union':
      for (const option of def.options ?? []) {
        const keys = keysAt(option, path);
        if (keys !== undefined) return keys;
      }
      return undefined;
    case 'record':
      return path.length === 0 || def.valueType === undefined ? undefined : keysAt(def.valueType, path.slice(1));
    case 'object': {
      const shape = def.shape ?? {};
      if (path.length === 0) return Object.keys(shape);
      const next = shape[String(path[0])] as z.ZodType | undefined;
      return next === undefined ? undefined : keysAt(next, path.slice(1));
    }
    default:
      return undefined;
  }
}
