/**
 * The problems a mapping parse collects: every problem of a mapping is reported at once, each with
 * the full config path of the offending value, instead of stopping at the first.
 */
import { ErrorCode, YarrowError } from '../errors.js';

/** One problem: where (a dotted config path) and why. */
export interface MappingProblem {
  readonly path: string;
  readonly reason: string;
}

/** Collects problems; the parse helpers record into it and carry on. */
export class MappingProblems {
  readonly list: MappingProblem[] = [];

  add(path: string, reason: string): void {
    this.list.push({ path, reason });
  }

  /** An object, or a recorded problem and undefined. */
  object(v: unknown, path: string): Record<string, unknown> | undefined {
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
    this.add(path, `expected an object but got ${show(v)}`);
    return undefined;
  }

  /** Records every key of `o` that `allowed` does not list. */
  keys(o: Record<string, unknown>, allowed: readonly string[], path: string, hints: Readonly<Record<string, string>> = {}): void {
    for (const key of Object.keys(o)) {
      if (allowed.includes(key)) continue;
      const expected = allowed.length === 1 ? `"${allowed[0]}"` : `one of ${allowed.join(', ')}`;
      const hint = Object.hasOwn(hints, key) ? ` (${hints[key]})` : '';
      this.add(`${path}.${key}`, `unknown key; expected ${expected}${hint}`);
    }
  }

  /** A boolean option with its default. */
  flag(spec: Record<string, unknown>, key: string, fallback: boolean, path: string): boolean {
    const v = spec[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') {
      this.add(`${path}.${key}`, `expected true or false but got ${show(v)}`);
      return fallback;
    }
    return v;
  }

  /** An integer option in [min, max] with its default. */
  integer(spec: Record<string, unknown>, key: string, fallback: number, min: number, max: number, path: string): number {
    const v = spec[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      this.add(`${path}.${key}`, `expected an integer from ${min} to ${max} but got ${show(v)}`);
      return fallback;
    }
    return v;
  }

  /** A string option that must be one of `values`. */
  oneOf<T extends string>(spec: Record<string, unknown>, key: string, values: readonly T[], fallback: T, path: string): T {
    const v = spec[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
      this.add(`${path}.${key}`, `expected one of ${values.join(', ')} but got ${show(v)}`);
      return fallback;
    }
    return v as T;
  }

  /**
   * Throws the collected problems as one YarrowError(invalidMapping): the message lists each
   * problem on its own line (`<path>: <reason>`), `details.field` names the first and
   * `details.problems` holds them all.
   */
  throwIfAny(): void {
    if (this.list.length === 0) return;
    const message = this.list.map((p) => `${p.path}: ${p.reason}`).join('\n');
    throw new YarrowError(ErrorCode.invalidMapping, message, { field: this.list[0].path, problems: [...this.list] });
  }
}

/** A value as an error message shows it. */
export function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'object') return Array.isArray(v) ? 'an array' : 'an object';
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? JSON.stringify(v) : typeof v;
}
