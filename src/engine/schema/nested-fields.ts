/**
 * Reading fields below the top level of a document: dotted names through nested objects (arrays of
 * objects give repeated values), copying them into the stored form in the same nesting, and the
 * walk that finds the document fields wildcard patterns map.
 */
import type { Mapping } from './field-table.js';
import { checkValue, isObject, planOf } from './field-values.js';
import type { FieldValue } from './field-values.js';
import { fail } from './invalid-document.js';
import type { DocumentLocation } from './invalid-document.js';

/**
 * Collects the values at `path` below `node` into `out`, following objects and fanning out over
 * arrays of objects; returns whether it fanned out (then every value found is one repetition).
 */
export function readPath(node: Record<string, unknown>, path: readonly string[], i: number, out: unknown[], location: DocumentLocation | undefined): boolean {
  const key = path[i];
  const next = Object.hasOwn(node, key) ? node[key] : undefined;
  if (next === undefined || next === null) return false;
  if (i === path.length - 1) {
    out.push(next);
    return false;
  }
  if (Array.isArray(next)) {
    for (const item of next as readonly unknown[]) {
      if (item === null) continue;
      if (typeof item !== 'object' || Array.isArray(item)) fail(location, path.slice(0, i + 1).join('.'), 'object', item, null);
      readPath(item as Record<string, unknown>, path, i + 1, out, location);
    }
    return true;
  }
  if (typeof next !== 'object') fail(location, path.slice(0, i + 1).join('.'), 'object', next, null);
  return readPath(next as Record<string, unknown>, path, i + 1, out, location);
}

/** Copies the value at `path` from `source` into `target`, keeping its objects and arrays of objects. */
export function project(target: Record<string, unknown>, source: Record<string, unknown>, path: readonly string[], i: number): void {
  const key = path[i];
  const v = Object.hasOwn(source, key) ? source[key] : undefined;
  if (v === undefined || v === null) return;
  if (i === path.length - 1) {
    target[key] = v;
    return;
  }
  if (Array.isArray(v)) {
    const items = v as readonly unknown[];
    let copy = target[key] as unknown[] | undefined;
    if (!Array.isArray(copy)) {
      copy = items.map((item) => (isObject(item) ? {} : null));
      target[key] = copy;
    }
    items.forEach((item, j) => {
      if (isObject(item)) project(copy[j] as Record<string, unknown>, item, path, i + 1);
    });
    return;
  }
  if (!isObject(v)) return;
  let child = target[key] as Record<string, unknown> | undefined;
  if (child === undefined) {
    child = {};
    target[key] = child;
  }
  project(child, v, path, i + 1);
}

/** A document field a wildcard maps: its dotted path and the values found there. */
interface WildcardHit {
  readonly path: readonly string[];
  readonly values: unknown[];
  fannedOut: boolean;
}

/**
 * Walks the document's fields (nested objects as dotted names, arrays of objects as repetitions)
 * and gives each one a wildcard pattern matches, and no plain field maps, that pattern's mapping.
 */
export function addWildcardFields(
  mapping: Mapping,
  plain: ReadonlySet<string>,
  doc: Record<string, unknown>,
  values: Map<string, readonly FieldValue[]>,
  stored: Record<string, unknown>,
  location: DocumentLocation | undefined,
): void {
  const hits = new Map<string, WildcardHit>();
  // `segments` is the path to `node`, pushed and popped as the walk descends (keys may contain dots).
  const segments: string[] = [];
  const walk = (node: Record<string, unknown>, prefix: string, fannedOut: boolean): void => {
    for (const key of Object.keys(node)) {
      if (prefix === '' && key === '_id') continue;
      const v = node[key];
      if (v === undefined || v === null) continue;
      const name = prefix === '' ? key : `${prefix}.${key}`;
      if (plain.has(name)) continue;
      const object = isObject(v);
      const objects = !object && isObjectArray(v);
      const field = mapping.field(name);
      if (field !== undefined && (field.baseType === 'geopoint' || !(object || objects))) {
        let hit = hits.get(name);
        if (hit === undefined) {
          hit = { path: [...segments, key], values: [], fannedOut };
          hits.set(name, hit);
        }
        hit.values.push(v);
        if (hit.values.length > 1) hit.fannedOut = true;
      } else if (object || objects) {
        segments.push(key);
        if (object) walk(v, name, fannedOut);
        else for (const item of v) if (isObject(item)) walk(item, name, true);
        segments.pop();
      }
    }
  };
  walk(doc, '', false);
  for (const [name, hit] of hits) {
    const field = mapping.field(name)!;
    const f = planOf(field, name);
    const v = hit.fannedOut ? hit.values.flat() : hit.values[0];
    values.set(name, checkValue(v, hit.fannedOut, f, location));
    if (f.store) project(stored, doc, hit.path, 0);
  }
}

function isObjectArray(v: unknown): v is readonly unknown[] {
  return Array.isArray(v) && v.length > 0 && (v as readonly unknown[]).every((item) => item === null || isObject(item)) && (v as readonly unknown[]).some(isObject);
}
