/**
 * The hash of a token span that the tokenizer computes while it scans and the indexer's raw-token
 * table keys on, so that a token seen before costs no second pass over its characters: FNV-1a over
 * the span's UTF-16 code units, with A-Z read as a-z.
 */

/** FNV-1a's prime: a multiply per code unit spreads short ASCII words well enough here. */
export const FNV_PRIME = 0x01000193;
/** FNV-1a's offset basis, as a signed 32-bit integer. */
export const FNV_OFFSET = 0x811c9dc5 | 0;

/** The span hash of `text[start, end)` computed in one pass (for spans the tokenizer did not hash). */
export function hashSpan(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < end; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    hash = Math.imul(hash ^ c, FNV_PRIME);
  }
  return hash;
}
