/**
 * The labelled controls around the results: which index, how to sort, and — only for indexes with
 * semantic fields — lexical, semantic or hybrid retrieval.
 */
import type { IndexSchema } from '../index-schema.js';
import { SEARCH_MODES } from '../url-state.js';
import type { SearchMode } from '../url-state.js';

/** The index picker. */
export function IndexPicker({ indexes, value, onChange }: { readonly indexes: readonly string[]; readonly value: string | null; readonly onChange: (index: string) => void }) {
  return (
    <div class="field">
      <label for="index">Index</label>
      <select id="index" value={value ?? ''} onChange={(e) => { onChange(e.currentTarget.value); }}>
        {value !== null && !indexes.includes(value) ? <option value={value}>{value} (unknown)</option> : null}
        {indexes.map((i) => (
          <option key={i} value={i}>{i}</option>
        ))}
      </select>
    </div>
  );
}

/** Sort by relevance or by any `sort: true` field, either way. */
export function SortPicker({ schema, value, onChange }: { readonly schema: IndexSchema; readonly value: string; readonly onChange: (sort: string) => void }) {
  return (
    <div class="field">
      <label for="sort">Sort by</label>
      <select id="sort" value={value} onChange={(e) => { onChange(e.currentTarget.value); }}>
        <option value="">Relevance</option>
        {schema.sortFields.flatMap((f) => [
          <option key={`${f}:asc`} value={`${f}:asc`}>{f} (ascending)</option>,
          <option key={`${f}:desc`} value={`${f}:desc`}>{f} (descending)</option>,
        ])}
      </select>
    </div>
  );
}

const MODE_LABELS: Readonly<Record<SearchMode, string>> = { lexical: 'Lexical', semantic: 'Semantic', hybrid: 'Hybrid' };

/** Lexical / semantic / hybrid; rendered only when the index has semantic fields. */
export function ModeSwitch({ schema, value, onChange }: { readonly schema: IndexSchema; readonly value: SearchMode; readonly onChange: (mode: SearchMode) => void }) {
  if (schema.semanticFields.length === 0) return null;
  return (
    <fieldset class="modes">
      <legend>Retrieval</legend>
      {SEARCH_MODES.map((m) => (
        <label key={m}>
          <input type="radio" name="mode" value={m} checked={value === m} onChange={() => { onChange(m); }} />
          {MODE_LABELS[m]}
        </label>
      ))}
    </fieldset>
  );
}
