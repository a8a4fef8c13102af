/**
 * The order in which a segment's terms are written: by UTF-16 code units, the term dictionary's
 * order (the default `Array.prototype.sort` order), computed on term ids rather than on the strings
 * so that the writer needs no map from term back to id. Also the order of a buffer's ids, which may
 * repeat (equal ones end up next to each other, in no particular order).
 *
 * (Measured and not kept: refining tied runs by the keys of their next units, with native sorts or
 * a radix sort, instead of comparing their strings. No faster on the terms and ids of real
 * buffers, where most of the time is the one native sort and the key computation.)
 */

/** Ids fit in the low bits of a sort key below this many terms. */
const ID_BITS = 21;
const ID_RANGE = 2 ** ID_BITS;
/** Code units of a term that its sort key holds, 7 bits each. */
const KEY_UNITS = 4;

/**
 * The ids `0 .. terms.length - 1` ordered by their terms. Most of the work is a native numeric
 * sort of keys that hold a term's first code units above its id; only terms whose keys tie (they
 * share those units, or leave ASCII early) are then compared as strings, within their run.
 */
export function sortedTermIds(terms: readonly string[]): Int32Array {
  const n = terms.length;
  const ids = new Int32Array(n);
  if (inOrder(terms)) {
    for (let i = 0; i < n; i++) ids[i] = i;
    return ids;
  }
  const byTerm = (a: number, b: number): number => (terms[a] < terms[b] ? -1 : terms[a] > terms[b] ? 1 : 0);
  if (n >= ID_RANGE) {
    for (let i = 0; i < n; i++) ids[i] = i;
    return ids.sort(byTerm);
  }
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = prefixKey(terms[i]) * ID_RANGE + i;
  keys.sort();
  for (let i = 0; i < n; i++) ids[i] = keys[i] % ID_RANGE;
  // Runs of one key prefix, in id order so far, are put in term order.
  for (let start = 0; start < n; ) {
    const prefix = Math.floor(keys[start] / ID_RANGE);
    let end = start + 1;
    while (end < n && Math.floor(keys[end] / ID_RANGE) === prefix) end++;
    if (end - start > 1) ids.subarray(start, end).sort(byTerm);
    start = end;
  }
  return ids;
}

/**
 * Whether `terms` are in order already: a bulk load's ids often are (files exported by key). One
 * comparison per term when they are; a buffer's terms, in the order they were first seen, stop it
 * within a few.
 */
function inOrder(terms: readonly string[]): boolean {
  for (let i = 1; i < terms.length; i++) if (terms[i - 1] > terms[i]) return false;
  return true;
}

/**
 * A 28-bit key that never orders two terms against their code-unit order: per unit of the first
 * {@link KEY_UNITS}, 0 when the term has ended, else the unit + 1 capped at 127; after a capped
 * unit the rest are 0 (such terms tie, and the string comparison decides).
 */
function prefixKey(term: string): number {
  let key = 0;
  let open = true;
  for (let j = 0; j < KEY_UNITS; j++) {
    let v = 0;
    if (open && j < term.length) {
      v = Math.min(term.charCodeAt(j) + 1, 127);
      open = v < 127;
    }
    key = (key << 7) | v;
  }
  return key;
}
