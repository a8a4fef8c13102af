/**
 * Field names of a mapping: plain (`title`), dotted to reach into nested objects (`meta.author`),
 * and wildcard patterns with one `*` (`extra_*`, `meta.field_*_str`) that give every matching
 * document field their mapping, as in Nixiesearch 0.8 (`FieldName.scala`).
 */

/** A compiled wildcard pattern: `extra_*` is prefix `extra_`, suffix ``. */
export interface FieldPattern {
  readonly pattern: string;
  readonly prefix: string;
  readonly suffix: string;
}

/** Whether a mapping field name is a wildcard pattern. */
export function isWildcardName(name: string): boolean {
  return name.includes('*');
}

/**
 * Why `name` cannot be a mapping field name, or null when it can. Wildcard rules are Nixiesearch's:
 * one `*`, and in a dotted name the `*` sits in the last segment (`meta.field_*_str`, not
 * `*_meta.field`).
 */
export function fieldNameProblem(name: string): string | null {
  if (name === '') return 'field names must not be empty';
  for (const part of name.split('.')) {
    if (part === '') return `field name "${name}" has an empty segment between dots`;
    // Such keys would reach the prototype when documents are read or stored.
    if (part === '__proto__') return 'field names must not contain "__proto__"';
  }
  const star = name.indexOf('*');
  if (star >= 0) {
    if (name.indexOf('*', star + 1) >= 0) return `wildcard field name "${name}" has more than one "*"`;
    if (name.lastIndexOf('.') > star) return `wildcard field name "${name}" must have its "*" after the last "."`;
  }
  return null;
}

/** Compiles a wildcard field name (one that passed {@link fieldNameProblem}). */
export function compilePattern(pattern: string): FieldPattern {
  const star = pattern.indexOf('*');
  return { pattern, prefix: pattern.slice(0, star), suffix: pattern.slice(star + 1) };
}

/** Whether a concrete (dotted) field name matches the pattern; `*` matches one or more characters. */
export function patternMatches(p: FieldPattern, name: string): boolean {
  return name.length > p.prefix.length + p.suffix.length && name.startsWith(p.prefix) && name.endsWith(p.suffix);
}
