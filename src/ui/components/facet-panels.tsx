/**
 * One panel per `facet: true` field: term values as checkboxes with their counts, numeric and date
 * fields as range checkboxes. A ticked value stays listed (count 0 when no hit has it any more),
 * so it can always be unticked.
 */
import type { Bucket } from '../api.js';
import { describeRange } from '../facet-ranges.js';
import type { FacetField } from '../index-schema.js';
import type { RangeBuckets } from '../search-request.js';
import { formatRange } from '../url-state.js';

interface Props {
  readonly facets: readonly FacetField[];
  readonly buckets: Readonly<Record<string, readonly Bucket[]>>;
  readonly ranges: RangeBuckets;
  readonly selected: Readonly<Record<string, readonly string[]>>;
  readonly onToggle: (field: string, value: string) => void;
}

interface Choice {
  readonly value: string;
  readonly label: string;
  readonly count: number;
}

function termChoices(buckets: readonly Bucket[], selected: readonly string[]): Choice[] {
  const choices: Choice[] = buckets.map((b) => ({ value: String(b.term), label: String(b.term), count: b.count }));
  for (const s of selected) if (!choices.some((c) => c.value === s)) choices.push({ value: s, label: s, count: 0 });
  return choices;
}

function rangeChoices(facet: FacetField, ranges: RangeBuckets, buckets: readonly Bucket[], selected: readonly string[]): Choice[] {
  const specs = ranges[facet.name] ?? [];
  const choices: Choice[] = specs.map((r, i) => ({ value: formatRange(r, facet.baseType === 'date' || facet.baseType === 'datetime'), label: describeRange(r, facet.baseType), count: buckets[i]?.count ?? 0 }));
  for (const s of selected) if (!choices.some((c) => c.value === s)) choices.push({ value: s, label: s.replace('..', ' – '), count: 0 });
  return choices.filter((c) => c.count > 0 || selected.includes(c.value));
}

/** The facet panels (nothing when the index has no facet fields). */
export function FacetPanels({ facets, buckets, ranges, selected, onToggle }: Props) {
  if (facets.length === 0) return null;
  return (
    <aside class="facets" aria-label="Filters">
      {facets.map((facet) => {
        const sel = selected[facet.name] ?? [];
        const b = buckets[facet.name] ?? [];
        const choices = facet.kind === 'terms' ? termChoices(b, sel) : rangeChoices(facet, ranges, b, sel);
        return (
          <fieldset key={facet.name} class="facet" data-field={facet.name}>
            <legend>{facet.name}</legend>
            {choices.length === 0 ? <p class="muted">No values</p> : null}
            <ul>
              {choices.map((c, i) => {
                const id = `facet-${facet.name}-${i}`;
                return (
                  <li key={c.value}>
                    <input id={id} type="checkbox" checked={sel.includes(c.value)} onChange={() => { onToggle(facet.name, c.value); }} />
                    <label for={id}>
                      <span class="facet-label">{c.label}</span>
                      <span class="count">{c.count}<span class="visually-hidden"> hits</span></span>
                    </label>
                  </li>
                );
              })}
            </ul>
          </fieldset>
        );
      })}
    </aside>
  );
}
