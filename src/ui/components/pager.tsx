/**
 * Previous / next page links. They are real links (the URL of the other page), so they can be
 * opened in a new tab or copied; a plain click navigates in place.
 */
import { formatState } from '../url-state.js';
import type { PageState } from '../url-state.js';

interface Props {
  readonly state: PageState;
  readonly hasNext: boolean;
  readonly onNavigate: (state: PageState) => void;
}

function PageLink({ state, label, rel, onNavigate }: { readonly state: PageState; readonly label: string; readonly rel: string; readonly onNavigate: (s: PageState) => void }) {
  return (
    <a
      href={formatState(state) === '' ? '/' : formatState(state)}
      rel={rel}
      class="page-link"
      onClick={(e) => {
        if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        onNavigate(state);
      }}
    >
      {label}
    </a>
  );
}

/** The pager; nothing when there is only one page. */
export function Pager({ state, hasNext, onNavigate }: Props) {
  if (state.page === 1 && !hasNext) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {state.page > 1 ? <PageLink state={{ ...state, page: state.page - 1 }} label="← Previous" rel="prev" onNavigate={onNavigate} /> : <span />}
      <span class="page-number" aria-current="page">Page {state.page}</span>
      {hasNext ? <PageLink state={{ ...state, page: state.page + 1 }} label="Next →" rel="next" onNavigate={onNavigate} /> : <span />}
    </nav>
  );
}
