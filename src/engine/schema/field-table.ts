/**
 * The mapping model: the fields of an index as the engine sees them, and the one Mapping
 * implementation, which also resolves concrete names through wildcard patterns.
 */
import { compilePattern, isWildcardName, patternMatches } from './field-name.js';
import type { FieldPattern } from './field-name.js';
import type { SemanticMapping, SuggestMapping } from './text-options.js';

const scalarTypes = ['int', 'long', 'float', 'double', 'bool', 'date', 'datetime'] as const;

/** A field type without its `[]` suffix. */
export type BaseType = 'id' | 'text' | (typeof scalarTypes)[number] | 'geopoint';

/** Every type name accepted in a mapping, in the order error messages list them. */
export const fieldTypes: readonly string[] = Object.freeze(['id', 'text', 'text[]', ...scalarTypes, ...scalarTypes.map((t) => `${t}[]`), 'geopoint']);

/** One field of a mapping. */
export interface FieldMapping {
  /** e.g. "title", "meta.author" for `doc.meta.author`, or a wildcard pattern such as "extra_*". */
  readonly name: string;
  /** The type, e.g. "text[]" (`string` is read as `text`). */
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
  /** Completion candidates of a text field (`suggest`), else null. */
  readonly suggest: SuggestMapping | null;
  /** Vector index of a text field (`search.semantic`), else null. */
  readonly semantic: SemanticMapping | null;
}

/** All fields of an index. */
export interface Mapping {
  /** Fields in declaration order; always includes `_id`. Wildcard patterns appear under their pattern name. */
  readonly fields: readonly FieldMapping[];
  /** Whether some field is a wildcard pattern. */
  readonly hasWildcards: boolean;
  /**
   * The field with this exact name (dotted names included), else the first wildcard pattern that
   * matches it, as a field of that concrete name; undefined when neither maps it.
   */
  field(name: string): FieldMapping | undefined;
}

/** Names resolved through wildcard patterns are cached up to this many; documents with ever-new keys then resolve each time. */
const maxResolved = 10_000;

/** The one Mapping implementation: frozen fields, a name index and the wildcard patterns. */
export class FieldTable implements Mapping {
  readonly fields: readonly FieldMapping[];
  readonly hasWildcards: boolean;
  /** Plain names, and concrete names resolved through the patterns (null: no pattern matches). */
  private readonly byName: Map<string, FieldMapping | null>;
  private readonly patterns: readonly { readonly pattern: FieldPattern; readonly field: FieldMapping }[];
  private resolved = 0;

  constructor(fields: readonly FieldMapping[]) {
    this.fields = Object.freeze(fields.map((f) => Object.freeze({ ...f })));
    this.byName = new Map(this.fields.map((f) => [f.name, f]));
    this.patterns = this.fields.filter((f) => isWildcardName(f.name)).map((field) => ({ pattern: compilePattern(field.name), field }));
    this.hasWildcards = this.patterns.length > 0;
  }

  field(name: string): FieldMapping | undefined {
    const known = this.byName.get(name);
    if (known !== undefined || !this.hasWildcards) return known ?? undefined;
    if (isWildcardName(name)) return undefined;
    const match = this.patterns.find((p) => patternMatches(p.pattern, name));
    const concrete = match === undefined ? null : Object.freeze({ ...match.field, name });
    // Both answers are cached (documents repeat their keys), up to a bound for ever-new keys.
    if (this.resolved < maxResolved) {
      this.resolved++;
      this.byName.set(name, concrete);
    }
    return concrete ?? undefined;
  }

  /** The wildcard pattern a concrete name falls under, if any (for documents). */
  patternOf(name: string): FieldMapping | undefined {
    return this.patterns.find((p) => patternMatches(p.pattern, name))?.field;
  }
}

