/**
 * The order in which a segment's terms are written: by UTF-16 code units, the term dictionary's
 * order (the default `Array.prototype.sort` order), computed on term ids rather than on the strings
 * so that the writer needs no map from term back to id. Also the order of a buffer's ids (which may
 * repeat: equal terms end up next to each other, in no particular order).
 */

/** Ids fit in the low bits of a sort key below this many terms. */
const ID_BITS = 21;
const ID_RANGE = 2 ** ID_BITS;
const ID_MASK = ID_RANGE - 1;
/** Code units of a term that its sort key holds, 7 bits each. */
const KEY_UNITS = 4;
/** Runs shorter than this are sorted by insertion, longer ones by the native sort. */
const INSERTION_RUN = 16;

/**
 * The ids `0 .. terms.length - 1` ordered by their terms. The work is native numeric sorts of keys
 * that hold {@link KEY_UNITS} code units of a term above its id: first of the terms' first units,
 * then, within each run of terms that tie there, of their next units, and so on (no string
 * comparisons, which cost a call each). Only runs that tie on a unit past ASCII are compared as
 * strings. (A radix sort in JavaScript was faster once warm, but a worker sorts a few times per
 * segment and runs it cold: the native sort needs no warming up.)
 */
export function sortedTermIds(terms: readonly string[]): Int32Array {
  const n = terms.length;
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  if (n >= ID_RANGE) return ids.sort(byTermOf(terms));
  const keys = new Float64Array(n);
  // Runs still to order: start, end, and the units their terms are known to share. A stack
  // rather than recursion: one loop that V8 optimises once, whatever the depth.
  const runs: number[] = [0, n, 0];
  while (runs.length > 0) {
    const offset = runs.pop()!;
    const end = runs.pop()!;
    const start = runs.pop()!;
    if (offset >= MAX_KEYED_UNITS) {
      ids.subarray(start, end).sort(byTermOf(terms));
      continue;
    }
    sortByKey(terms, ids, keys, start, end, offset);
    tiedRuns(terms, ids, keys, start, end, offset, runs);
  }
  return ids;
}

function byTermOf(terms: readonly string[]): (a: number, b: number) => number {
  return (a, b) => (terms[a] < terms[b] ? -1 : terms[a] > terms[b] ? 1 : 0);
}

/** Orders `ids[start..end)` by the keys of their terms' units from `offset` on, left in `keys`. */
function sortByKey(terms: readonly string[], ids: Int32Array, keys: Float64Array, start: number, end: number, offset: number): void {
  for (let i = start; i < end; i++) keys[i] = prefixKey(terms[ids[i]], offset) * ID_RANGE + ids[i];
  if (end - start >= INSERTION_RUN) keys.subarray(start, end).sort();
  else insertionSort(keys, start, end);
  // A key below 2^49 keeps its id in the low bits of its int32 truncation (no float division).
  for (let i = start; i < end; i++) ids[i] = keys[i] & ID_MASK;
}

/**
 * Finds the runs of one key in `keys[start..end)` (sorted) and puts them in term order: a run
 * equal and still ASCII in all the key's units is pushed to `runs` for its next units; one that
 * tied on a capped unit is sorted by string comparison; in any other run every term ended at the
 * same unit, so they are equal.
 */
function tiedRuns(terms: readonly string[], ids: Int32Array, keys: Float64Array, start: number, end: number, offset: number, runs: number[]): void {
  for (let from = start; from < end; ) {
    const high = keys[from] - ids[from];
    let to = from + 1;
    while (to < end && keys[to] - ids[to] === high) to++;
    if (to - from > 1) {
      const key = high / ID_RANGE;
      const last = key & UNIT_MASK;
      if (last !== 0 && last !== UNIT_MASK) runs.push(from, to, offset + KEY_UNITS);
      else if (hasCappedUnit(key)) ids.subarray(from, to).sort(byTermOf(terms));
    }
    from = to;
  }
}

function insertionSort(keys: Float64Array, start: number, end: number): void {
  for (let i = start + 1; i < end; i++) {
    const key = keys[i];
    let j = i - 1;
    for (; j >= start && keys[j] > key; j--) keys[j + 1] = keys[j];
    keys[j + 1] = key;
  }
}

/** Units keyed before the strings are compared instead: bounds the depth of runs of long equal prefixes. */
const MAX_KEYED_UNITS = 256;

/** The largest value of one unit in a key: a capped unit. */
const UNIT_MASK = 127;

function hasCappedUnit(key: number): boolean {
  for (let j = 0; j < KEY_UNITS; j++, key >>>= 7) if ((key & UNIT_MASK) === UNIT_MASK) return true;
  return false;
}

/**
 * A 28-bit key that never orders two terms (equal in their first `offset` units) against their
 * code-unit order: per unit of the {@link KEY_UNITS} from `offset`, 0 when the term has ended,
 * else the unit + 1 capped at 127; after a capped unit the rest are 0 (such terms tie, and the
 * string comparison decides).
 */
function prefixKey(term: string, offset: number): number {
  let key = 0;
  let open = true;
  for (let j = offset; j < offset + KEY_UNITS; j++) {
    let v = 0;
    if (open && j < term.length) {
      v = Math.min(term.charCodeAt(j) + 1, 127);
      open = v < 127;
    }
    key = (key << 7) | v;
  }
  return key;
}
