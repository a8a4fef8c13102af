/**
 * The order in which a segment's terms are written: by UTF-16 code units, the term dictionary's
 * order (the default `Array.prototype.sort` order), computed on term ids rather than on the strings
 * so that the writer needs no map from term back to id. Also the order of a buffer's ids, which may
 * repeat (equal ones end up next to each other, in no particular order).
 *
 * The keys are sorted by a radix sort of their 7-bit units, in JavaScript: V8's native sort of a
 * Float64Array of 24k keys took 9 ms (390 ns a key), longer than the rest of the term's write-out;
 * the radix sort takes a fraction of a millisecond, and then tied runs are keyed by their next units
 * and sorted again the same way, so few terms are ever compared as strings.
 */

/** Code units of a term that its sort key holds, 7 bits each. */
const KEY_UNITS = 4;
const UNIT_BITS = 7;
const UNIT_MASK = (1 << UNIT_BITS) - 1;
/** Runs shorter than this are compared as strings; longer ones are keyed by their next units. */
const RADIX_RUN = 32;

/** Scratch arrays of the sort, kept for the thread's next sort (a flush sorts several lists). */
let scratchKeys = new Uint32Array(0);
let scratchSpare = new Uint32Array(0);
let scratchIds = new Int32Array(0);
/** Ranges left to sort, as (start, end, offset) triples. */
let pending = new Int32Array(3 * 64);
const counts = new Int32Array(UNIT_MASK + 2);

/*
 * Why the sort is cut into small functions of one loop each: a flush runs once or twice per thread,
 * so its first sort starts in the interpreter and V8 compiles the long loops on the fly (on-stack
 * replacement). Such code is compiled with the type feedback gathered so far, and the code after
 * the loop has none yet: reaching it leaves the compiled code again, and V8 keeps that code for the
 * loop's next entry, which left it again, once per tied run of the sort (tens of times a flush, a
 * fifth of a bulk thread's sort time). A function with one loop and nothing after it has all its
 * feedback by the time its loop is compiled; and no recursion: the runs still to sort wait in a
 * list.
 */

/**
 * The ids `0 .. terms.length - 1` ordered by their terms. A term's key holds its first code units;
 * the keys are radix-sorted with their ids, and runs of tied keys are keyed by their next units
 * and sorted again; only short runs, and terms whose units leave ASCII, are compared as strings.
 */
export function sortedTermIds(terms: readonly string[]): Int32Array {
  const n = terms.length;
  const ids = identity(n);
  if (inOrder(terms)) return ids;
  if (scratchKeys.length < n) {
    scratchKeys = new Uint32Array(n);
    scratchSpare = new Uint32Array(n);
    scratchIds = new Int32Array(n);
  }
  pending[0] = 0;
  pending[1] = n;
  pending[2] = 0;
  for (let top = 3; top > 0; ) {
    top -= 3;
    const start = pending[top];
    const end = pending[top + 1];
    const offset = pending[top + 2];
    fillKeys(terms, ids, start, end, offset);
    radixSort(scratchKeys, ids, start, end);
    top = splitRuns(terms, ids, start, end, offset, top);
  }
  return ids;
}

/** The ids `0 .. n - 1` in order. */
function identity(n: number): Int32Array {
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  return ids;
}

/** Keys `ids[start, end)` by their terms' units from `offset` on, into {@link scratchKeys}. */
function fillKeys(terms: readonly string[], ids: Int32Array, start: number, end: number, offset: number): void {
  const keys = scratchKeys;
  for (let i = start; i < end; i++) keys[i] = prefixKey(terms[ids[i]], offset);
}

/**
 * Goes over the runs of tied keys of the sorted `ids[start, end)`: a short run, or one whose key
 * holds a capped unit, is sorted by its strings; a longer one whose terms go on past the key is
 * added to {@link pending} (from index `top`) to be keyed by its next units. Returns the new top.
 */
function splitRuns(terms: readonly string[], ids: Int32Array, start: number, end: number, offset: number, top: number): number {
  const keys = scratchKeys;
  for (let s = start; s < end; ) {
    const key = keys[s];
    let e = s + 1;
    while (e < end && keys[e] === key) e++;
    if (e - s > 1) {
      if (e - s < RADIX_RUN || hasCappedUnit(key)) {
        sortByStrings(terms, ids, s, e);
      } else if ((key & UNIT_MASK) !== 0) {
        // Every term of the run goes on past this key (else they are all equal): their next units decide.
        if (top + 3 > pending.length) pending = growPending(pending);
        pending[top] = s;
        pending[top + 1] = e;
        pending[top + 2] = offset + KEY_UNITS;
        top += 3;
      }
    }
    s = e;
  }
  return top;
}

/** A copy of `list` with twice the room. */
function growPending(list: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(list.length * 2);
  grown.set(list);
  return grown;
}

/** Sorts `ids[start, end)` by their terms compared as strings: by insertion when few, else by the built-in sort. */
function sortByStrings(terms: readonly string[], ids: Int32Array, start: number, end: number): void {
  if (end - start >= RADIX_RUN) {
    ids.subarray(start, end).sort((a, b) => (terms[a] < terms[b] ? -1 : terms[a] > terms[b] ? 1 : 0));
    return;
  }
  for (let i = start + 1; i < end; i++) {
    const id = ids[i];
    const term = terms[id];
    let j = i;
    for (; j > start && terms[ids[j - 1]] > term; j--) ids[j] = ids[j - 1];
    ids[j] = id;
  }
}

/**
 * Stable LSD radix sort of `keys[start, end)`, {@link UNIT_BITS} bits a pass, carrying `ids`
 * along; a pass whose digit is the same for every key is skipped (the high units of a tied run).
 */
function radixSort(keys: Uint32Array, ids: Int32Array, start: number, end: number): void {
  let fromKeys: Uint32Array = keys;
  let fromIds: Int32Array = ids;
  let toKeys: Uint32Array = scratchSpare;
  let toIds: Int32Array = scratchIds;
  for (let shift = 0; shift < KEY_UNITS * UNIT_BITS; shift += UNIT_BITS) {
    countDigits(fromKeys, start, end, shift);
    if (counts[((fromKeys[start] >>> shift) & UNIT_MASK) + 1] === end - start) continue;
    digitStarts(start);
    scatter(fromKeys, fromIds, toKeys, toIds, start, end, shift);
    const keysWritten = toKeys;
    toKeys = fromKeys;
    fromKeys = keysWritten;
    const idsWritten = toIds;
    toIds = fromIds;
    fromIds = idsWritten;
  }
  if (fromKeys !== keys) {
    keys.set(fromKeys.subarray(start, end), start);
    ids.set(fromIds.subarray(start, end), start);
  }
}

/** Counts the keys of `keys[start, end)` by their digit at `shift`: digit `d` in `counts[d + 1]`. */
function countDigits(keys: Uint32Array, start: number, end: number, shift: number): void {
  counts.fill(0);
  for (let i = start; i < end; i++) counts[((keys[i] >>> shift) & UNIT_MASK) + 1]++;
}

/** Turns the counts into where each digit's keys start, from `start` on. */
function digitStarts(start: number): void {
  counts[0] = start;
  for (let d = 1; d <= UNIT_MASK; d++) counts[d] += counts[d - 1];
}

/** One pass of the radix sort: `keys[start, end)` and their ids to their digit's place in `toKeys` / `toIds`. */
function scatter(keys: Uint32Array, ids: Int32Array, toKeys: Uint32Array, toIds: Int32Array, start: number, end: number, shift: number): void {
  for (let i = start; i < end; i++) {
    const k = keys[i];
    const at = counts[(k >>> shift) & UNIT_MASK]++;
    toKeys[at] = k;
    toIds[at] = ids[i];
  }
}

/** Whether a key holds a unit capped at 127 (the units after it are 0 whatever the term's). */
function hasCappedUnit(key: number): boolean {
  for (let j = 0; j < KEY_UNITS; j++, key >>>= UNIT_BITS) if ((key & UNIT_MASK) === UNIT_MASK) return true;
  return false;
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
 * A 28-bit key of `term`'s units from `offset` on that never orders two terms against their
 * code-unit order: per unit of the next {@link KEY_UNITS}, 0 when the term has ended, else the
 * unit + 1 capped at 127; after a capped unit the rest are 0 (such terms tie, and the string
 * comparison decides).
 */
function prefixKey(term: string, offset: number): number {
  let key = 0;
  let open = true;
  for (let j = offset; j < offset + KEY_UNITS; j++) {
    let v = 0;
    if (open && j < term.length) {
      v = Math.min(term.charCodeAt(j) + 1, UNIT_MASK);
      open = v < UNIT_MASK;
    }
    key = (key << UNIT_BITS) | v;
  }
  return key >>> 0;
}
