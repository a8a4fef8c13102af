/**
 * Where the recent queries the search box suggests live: localStorage, per index, newest first. Storage
 * can be missing or refuse (private windows, quotas); the box then simply suggests nothing.
 */
import { remember } from './recent-queries.js';

const STORAGE_KEY = 'yarrow.recentQueries';

type Store = Record<string, string[]>;

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
