/**
 * The search page's entry point (bundled by esbuild into dist/ui, served at `/`). The first view
 * is loaded over synchronous requests before the first render, so the document finishes loading
 * with the hits of its URL on it (see `syncTransport`); everything after uses fetch.
 *
 * @module ui — browser code only: it talks to the server over HTTP and never imports server code.
 */
import { render } from 'preact';
import { ApiClient, syncTransport } from './api.js';
import { App } from './app.js';
import { ErrorBoundary } from './components/error-boundary.js';
import { SearchSession } from './search-session.js';
import { formatState, parseState } from './url-state.js';

const root = document.getElementById('app');
if (root !== null) {
  const session = new SearchSession();
  const requested = parseState(location.search);
  const initial = await session.load(requested, new ApiClient(syncTransport));
  // The URL named no index: show which one was picked, without a new history entry.
  if (initial.state.index !== requested.index) history.replaceState(null, '', formatState(initial.state));
  root.textContent = '';
  render(
    <ErrorBoundary>
      <App session={session} initial={initial} />
    </ErrorBoundary>,
    root,
  );
}
