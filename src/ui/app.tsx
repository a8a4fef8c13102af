/**
 * The search page. Its state is the URL: every change (a search, a ticked facet, another sort,
 * index or page) pushes a new URL and loads its view; back/forward load the view of the URL they
 * return to. Rendering is a function of the loaded {@link View} only.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiClient, fetchTransport } from './api.js';
import { FacetPanels } from './components/facet-panels.js';
import { HitList } from './components/hit-list.js';
import { IndexPicker, ModeSwitch, SortPicker } from './components/controls.js';
import { Pager } from './components/pager.js';
import { SearchBox } from './components/search-box.js';
import { loadRecent, saveRecent } from './recent-store.js';
import { PAGE_SIZE } from './search-request.js';
import type { SearchSession, View } from './search-session.js';
import { formatState, parseState, toggleFilter } from './url-state.js';
import type { PageState } from './url-state.js';

interface Props {
  readonly session: SearchSession;
  readonly initial: View;
}

function urlOf(state: PageState): string {
  const search = formatState(state);
  return search === '' ? location.pathname : search;
}

function titleOf(state: PageState): string {
  const parts = [state.q.trim(), state.index ?? ''].filter((p) => p !== '');
  return [...parts, 'Yarrow search'].join(' – ');
}

/** The hit count and server time, e.g. "12 hits in 3 ms". */
function Summary({ view }: { readonly view: View }) {
  const r = view.result;
  if (r === null) return null;
  const count = `${r.total.toLocaleString('en-US')}${r.total_relation === 'gte' ? '+' : ''}`;
  return (
    <>
      <strong class="total">{count}</strong> {r.total === 1 && r.total_relation === 'eq' ? 'hit' : 'hits'} in <span class="took">{r.took}</span> ms
    </>
  );
}

/** The page. */
export function App({ session, initial }: Props) {
  const [view, setView] = useState<View>(initial);
  const [loading, setLoading] = useState(false);
  // The state being loaded: controls show it at once (a ticked box stays ticked while its hits load).
  const [target, setTarget] = useState<PageState>(initial.state);
  const [recent, setRecent] = useState<readonly string[]>(() => (initial.state.index === null ? [] : loadRecent(initial.state.index)));
  const pending = useRef<AbortController | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const api = useRef(new ApiClient(fetchTransport));

  const show = useCallback(async (state: PageState, focusResults = false) => {
    pending.current?.abort();
    const controller = new AbortController();
    pending.current = controller;
    setLoading(true);
    setTarget(state);
    try {
      const next = await session.load(state, api.current, controller.signal);
      if (controller.signal.aborted) return;
      // The URL named no index (or an unknown one): show which one was picked, without a new entry.
      if (next.state.index !== state.index) history.replaceState(null, '', urlOf(next.state));
      setView(next);
      setTarget(next.state);
      if (next.state.index !== null) setRecent(loadRecent(next.state.index));
      if (focusResults) heading.current?.focus();
    } catch (e) {
      if ((e as Error).name !== 'AbortError') throw e;
    } finally {
      if (pending.current === controller) setLoading(false);
    }
  }, [session]);

  const navigate = useCallback((state: PageState, focusResults = false) => {
    history.pushState(null, '', urlOf(state));
    void show(state, focusResults);
  }, [show]);

  useEffect(() => {
    const onPop = (): void => { void show(parseState(location.search)); };
    window.addEventListener('popstate', onPop);
    return () => { window.removeEventListener('popstate', onPop); };
  }, [show]);

  useEffect(() => { document.title = titleOf(view.state); }, [view.state]);

  const { state, schema, result } = view;
  const onSearch = (q: string): void => {
    if (target.index !== null) setRecent(saveRecent(target.index, q));
    navigate({ ...target, q, page: 1 });
  };

  return (
    <div class="page">
      <header class="top">
        <h1 class="brand"><a href="/">Yarrow</a></h1>
        <div class="top-controls">
          <IndexPicker indexes={view.indexes} value={target.index} onChange={(index) => { navigate({ index, q: state.q, mode: 'lexical', sort: '', page: 1, filters: {} }); }} />
          <SearchBox query={target.q} recent={recent} onSearch={onSearch} />
        </div>
      </header>
      <div class="layout">
        {schema === null ? null : (
          <FacetPanels facets={schema.facets} buckets={view.facets} ranges={view.ranges} selected={target.filters} onToggle={(field, value) => { navigate(toggleFilter(target, field, value)); }} />
        )}
        <main class="results" aria-busy={loading}>
          <div class="results-bar">
            <h2 class="summary" ref={heading} tabIndex={-1} aria-live="polite">
              <Summary view={view} />
            </h2>
            {schema === null ? null : (
              <div class="result-controls">
                <ModeSwitch schema={schema} value={target.mode} onChange={(mode) => { navigate({ ...target, mode, page: 1 }); }} />
                <SortPicker schema={schema} value={target.sort} onChange={(sort) => { navigate({ ...target, sort, page: 1 }); }} />
              </div>
            )}
          </div>
          {view.error === null ? null : (
            <div class="error" role="alert">
              <p>{view.error}</p>
            </div>
          )}
          {result !== null && schema !== null && result.hits.length === 0 && view.error === null ? <p class="empty">No hits. Try fewer words or untick a filter.</p> : null}
          {result !== null && schema !== null ? <HitList hits={result.hits} schema={schema} first={(state.page - 1) * PAGE_SIZE + 1} /> : null}
          <Pager state={state} hasNext={view.hasNext} onNavigate={(s) => { navigate(s, true); }} />
        </main>
      </div>
    </div>
  );
}
