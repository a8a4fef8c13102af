/**
 * The order in which a segment's terms are written: by UTF-16 code units, the term dictionary's
 * order (the default `Array.prototype.sort` order), computed on term ids rather than on the strings
 * so that the writer needs no map from term back to id. Also the order of a buffer's ids (which may
 * repeat: equal terms end up next to each other, in no particular order).
 */

/** Code units of a term that its sort key holds, 7 bits each. */
const KEY_UNITS = 4;
const KEY_BITS = 7 * KEY_UNITS;
/** Runs shorter than this are sorted by insertion, longer ones by radix. */
const INSERTION_RUN = 24;

/** Scratch of one sort: keys and ids, twice (a radix pass copies from one pair to the other). */
interface Scratch {
  readonly keys: Uint32Array;
  readonly keys2: Uint32Array;
  readonly ids2: Int32Array;
  readonly counts: Int32Array;
}

/**
 * The ids `0 .. terms.length - 1` ordered by their terms. The work is radix sorts of keys that
 * hold {@link KEY_UNITS} code units of a term: first of the terms' first units, then, within
 * each run of terms that tie there, of their next units, and so on (no string comparisons, which
 * cost a call each). Only runs that tie on a unit past ASCII are compared as strings.
 */
export function sortedTermIds(terms: readonly string[]): Int32Array {
  const n = terms.length;
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const scratch: Scratch = { keys: new Uint32Array(n), keys2: new Uint32Array(n), ids2: new Int32Array(n), counts: new Int32Array(UNIT_MASK + 1) };
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
    const keys = sortByKey(terms, ids, scratch, start, end, offset);
    tiedRuns(terms, ids, keys, start, end, offset, runs);
  }
  return ids;
}

function byTermOf(terms: readonly string[]): (a: number, b: number) => number {
  return (a, b) => (terms[a] < terms[b] ? -1 : terms[a] > terms[b] ? 1 : 0);
}

/**
 * Orders `ids[start..end)` by the keys of their terms' units from `offset` on; returns the array
 * that holds the sorted keys.
 */
function sortByKey(terms: readonly string[], ids: Int32Array, scratch: Scratch, start: number, end: number, offset: number): Uint32Array {
  const keys = scratch.keys;
  for (let i = start; i < end; i++) keys[i] = prefixKey(terms[ids[i]], offset);
  if (end - start >= INSERTION_RUN) return radixSort(keys, ids, scratch, start, end);
  insertionSort(keys, ids, start, end);
  return keys;
}

/**
 * Finds the runs of one key in `keys[start..end)` (sorted) and puts them in term order: a run
 * equal and still ASCII in all the key's units is pushed to `runs` for its next units; one that
 * tied on a capped unit is sorted by string comparison; in any other run every term ended at the
 * same unit, so they are equal.
 */
function tiedRuns(terms: readonly string[], ids: Int32Array, keys: Uint32Array, start: number, end: number, offset: number, runs: number[]): void {
  for (let from = start; from < end; ) {
    const key = keys[from];
    let to = from + 1;
    while (to < end && keys[to] === key) to++;
    if (to - from > 1) {
      const last = key & UNIT_MASK;
      if (last !== 0 && last !== UNIT_MASK) runs.push(from, to, offset + KEY_UNITS);
      else if (hasCappedUnit(key)) ids.subarray(from, to).sort(byTermOf(terms));
    }
    from = to;
  }
}

function insertionSort(keys: Uint32Array, ids: Int32Array, start: number, end: number): void {
  for (let i = start + 1; i < end; i++) {
    const key = keys[i];
    const id = ids[i];
    let j = i - 1;
    for (; j >= start && keys[j] > key; j--) {
      keys[j + 1] = keys[j];
      ids[j + 1] = ids[j];
    }
    keys[j + 1] = key;
    ids[j + 1] = id;
  }
}

/**
 * Sorts `keys[start..end)` with their `ids` by least significant digit first, 7 bits (one unit)
 * a pass, skipping a pass whose digit is the same for all; returns the array the sorted keys are
 * in (`ids` always holds the sorted ids).
 */
function radixSort(keys: Uint32Array, ids: Int32Array, scratch: Scratch, start: number, end: number): Uint32Array {
  const { counts } = scratch;
  let srcKeys = keys;
  let srcIds = ids;
  let dstKeys = scratch.keys2;
  let dstIds = scratch.ids2;
  for (let shift = 0; shift < KEY_BITS; shift += 7) {
    counts.fill(0);
    for (let i = start; i < end; i++) counts[(srcKeys[i] >>> shift) & UNIT_MASK]++;
    if (counts[(srcKeys[start] >>> shift) & UNIT_MASK] === end - start) continue;
    let at = start;
    for (let d = 0; d <= UNIT_MASK; d++) {
      const c = counts[d];
      counts[d] = at;
      at += c;
    }
    for (let i = start; i < end; i++) {
      const key = srcKeys[i];
      const to = counts[(key >>> shift) & UNIT_MASK]++;
      dstKeys[to] = key;
      dstIds[to] = srcIds[i];
    }
    const k = srcKeys;
    srcKeys = dstKeys;
    dstKeys = k;
    const d = srcIds;
    srcIds = dstIds;
    dstIds = d;
  }
  if (srcIds !== ids) ids.set(srcIds.subarray(start, end), start);
  return srcKeys;
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
