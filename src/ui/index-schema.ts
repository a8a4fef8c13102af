/**
 * What the page needs to know about an index, read from its mapping: which fields the search box
 * searches, which get facet panels (terms or ranges), which can sort, which are semantic. The page
 * adapts to any mapping through this one view of it.
 */

/** One field as the server describes it (`GET /<index>` → `mapping.fields[]`). */
export interface FieldJson {
  readonly name: string;
  readonly type: string;
  readonly store?: boolean;
  readonly filter?: boolean;
  readonly facet?: boolean;
  readonly sort?: boolean;
  /** Set for lexically searchable text fields. */
  readonly analyzer?: string | null;
  /** Set for fields with vectors (semantic search); not served by any index yet. */
  readonly semantic?: unknown;
}

/** How a facet field is shown: term values as checkboxes, or numeric/date ranges. */
export type FacetKind = 'terms' | 'range';

export interface FacetField {
  readonly name: string;
  readonly kind: FacetKind;
  /** The mapped type without `[]` (e.g. `int`, `date`, `text`). */
  readonly baseType: string;
}

/** The page's view of one index. */
export interface IndexSchema {
  readonly name: string;
  /** Lexically searchable text fields: what the search box and highlighting cover. */
  readonly textFields: readonly string[];
  /** Fields with vectors; the lexical/semantic/hybrid switch shows only when there are some. */
  readonly semanticFields: readonly string[];
  readonly facets: readonly FacetField[];
  readonly sortFields: readonly string[];
  /** Stored fields other than `_id`, in mapping order: what a hit shows. */
  readonly storedFields: readonly string[];
}

const RANGE_TYPES = new Set(['int', 'long', 'float', 'double', 'date', 'datetime']);

/** Derives the page's view from a mapping's field list. */
export function indexSchema(name: string, fields: readonly FieldJson[]): IndexSchema {
  const real = fields.filter((f) => f.name !== '_id');
  return {
    name,
    textFields: real.filter((f) => typeof f.analyzer === 'string').map((f) => f.name),
    semanticFields: real.filter((f) => f.semantic !== undefined && f.semantic !== null && f.semantic !== false).map((f) => f.name),
    facets: real.filter((f) => f.facet === true).map((f) => {
      const baseType = f.type.replace(/\[\]$/, '');
      return { name: f.name, kind: RANGE_TYPES.has(baseType) ? 'range' : 'terms', baseType } as const;
    }),
    sortFields: real.filter((f) => f.sort === true).map((f) => f.name),
    storedFields: real.filter((f) => f.store !== false).map((f) => f.name),
  };
}
