/**
 * Suggestions for the search box. There is no `/_suggest` route yet, so the box suggests the
 * queries this browser ran before on the index (recent-store.ts keeps them), newest first. When a suggest
 * route lands, {@link suggest}'s callers take its answers in front of these.
 */

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
