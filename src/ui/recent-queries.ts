/**
 * Suggestions for the search box. There is no `/_suggest` route yet, so the box suggests the
 * queries this browser ran before (kept in localStorage, newest first, per index). When a suggest
 * route lands, {@link suggest}'s callers take its answers in front of these.
 */

const STORAGE_KEY = 'yarrow.recentQueries';
const KEEP = 20;

/** The suggestions for `typed` among `recent`: prefix matches first, then other substring matches. */
export function suggest(recent: readonly string[], typed: string, limit = 6): string[] {
  const t = typed.trim().toLowerCase();
  const candidates = recent.filter((r) => r.toLowerCase() !== t);
  if (t === '') return candidates.slice(0, limit);
  const prefix = candidates.filter((r) => r.toLowerCase().startsWith(t));
  const inner = candidates.filter((r) => !r.toLowerCase().startsWith(t) && r.toLowerCase().includes(t));
  return [...prefix, ...inner].slice(0, limit);
}

/** `recent` with `query` moved to the front (once), at most {@link KEEP} entries. */
export function remember(recent: readonly string[], query: string): string[] {
  const q = query.trim();
  if (q === '') return [...recent];
  return [q, ...recent.filter((r) => r !== q)].slice(0, KEEP);
}

type Store = Record<string, string[]>;

/** localStorage can be missing or refuse (private windows, quotas): suggestions are then empty. */
function readStore(): Store {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage.getItem(STORAGE_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Store) : {};
  } catch {
    return {};
  }
}

/** The recent queries of `index`, newest first. */
export function loadRecent(index: string): string[] {
  const list = readStore()[index];
  return Array.isArray(list) ? list.filter((q) => typeof q === 'string') : [];
}

/** Records that `query` ran on `index`; returns the new list. */
export function saveRecent(index: string, query: string): string[] {
  const store = readStore();
  const next = remember(store[index] ?? [], query);
  try {
    globalThis.localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...store, [index]: next }));
  } catch {
    // Not stored: the suggestions are a convenience.
  }
  return next;
}
