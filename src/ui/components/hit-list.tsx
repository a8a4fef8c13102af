/**
 * The hits of a page: a title (the `title` or `name` field, else the first stored text field),
 * the score and id, every other stored field, and the matched words of text fields marked.
 */
import type { Hit } from '../api.js';
import { highlightRuns } from '../highlight-text.js';
import type { IndexSchema } from '../index-schema.js';

const LONG_TEXT = 400;

function titleField(schema: IndexSchema): string | null {
  const text = schema.storedFields.filter((f) => schema.textFields.includes(f));
  return text.find((f) => f === 'title' || f === 'name') ?? (text.length > 0 ? text[0] : null);
}

function plain(value: unknown): string {
  if (Array.isArray(value)) return value.map(plain).join(', ');
  if (typeof value === 'string') return value.length > LONG_TEXT ? `${value.slice(0, LONG_TEXT)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A field's value with its matched words marked, or its plain text. */
function Value({ hit, field }: { readonly hit: Hit; readonly field: string }) {
  const fragments = hit._highlight?.[field];
  if (fragments === undefined || fragments.length === 0) return <>{plain(hit[field])}</>;
  return (
    <>
      {fragments.map((f, i) => (
        <span key={i} class="fragment">
          {highlightRuns(f).map((r, j) => (r.marked ? <mark key={j}>{r.text}</mark> : r.text))}
        </span>
      ))}
    </>
  );
}

/** The list of hits; `first` is the 1-based rank of the first one. */
export function HitList({ hits, schema, first }: { readonly hits: readonly Hit[]; readonly schema: IndexSchema; readonly first: number }) {
  const title = titleField(schema);
  return (
    <ol class="hits" start={first}>
      {hits.map((hit) => {
        const others = schema.storedFields.filter((f) => f !== title && hit[f] !== undefined && hit[f] !== null);
        const texts = others.filter((f) => schema.textFields.includes(f));
        const rest = others.filter((f) => !schema.textFields.includes(f));
        return (
          <li key={hit._id} class="hit" data-id={hit._id}>
            <h3 class="hit-title">{title !== null && hit[title] !== undefined ? <Value hit={hit} field={title} /> : hit._id}</h3>
            <p class="hit-meta">
              {/* A search sorted by a field does not score: _score is null then. */}
              {typeof hit._score === 'number' ? <span class="score" title="BM25 score">score {hit._score.toFixed(3)}</span> : null}
              <span class="id">id {hit._id}</span>
            </p>
            {texts.map((f) => (
              <p key={f} class="hit-text" data-field={f}>
                <Value hit={hit} field={f} />
              </p>
            ))}
            {rest.length > 0 ? (
              <dl class="hit-fields">
                {rest.map((f) => (
                  <div key={f}>
                    <dt>{f}</dt>
                    <dd>{plain(hit[f])}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
