/**
 * Type feedback for a thread's first segment write-out, gathered on a few made-up terms before the
 * real ones.
 *
 * Why: a bulk-load thread writes a segment about twice, and compiles its own optimised code (no
 * concurrent recompilation). V8 compiles the write-out's hot functions (the term dictionary's entry,
 * a postings block, the inverter's term loop) with the type feedback of the terms seen so far; a
 * branch no term has taken yet (the first term that leaves ASCII, the first surrogate pair, the
 * first block of a field, a buffer's first growth, a postings list of more than one block) has none,
 * and reaching it later leaves the compiled code: the function runs in the baseline tiers again
 * and is compiled a second or third time. Each such compile of these functions costs several
 * milliseconds on the thread (measured 9-26 ms for `putTerm`, `writeOneBlock`, `writeTerms` on the
 * loaded machine), about a dozen times a thread. A few hundred microseconds of made-up terms through
 * every branch, before the first real one, leave each function with complete feedback.
 *
 * Only the writers' own code is primed (never the tokenizer's), with the same array types the
 * buffer passes, so the real terms' feedback is not made polymorphic. Nothing primed is kept: the
 * segments written here are thrown away.
 */
import { IndexOptions } from '../codec/postings/postings-format.js';
import { ByteWriter } from '../codec/bytes/byte-writer.js';
import { lengthToNorm } from '../codec/norms/small-float.js';
import { primeLz4 } from '../codec/stored-fields/lz4-block.js';
import { SegmentWriter } from './segment-writer.js';
import { sortedTermIds } from './term-order.js';

/**
 * Rounds of the made-up segment: V8 gives a function its feedback vector only after about eight
 * calls (`--invocation-count-for-feedback-allocation`), and feedback is only gathered from then on.
 */
const ROUNDS = 10;

let primed = false;

/** Primes the write-out's code once per thread (module instance); a few milliseconds. */
export function primeSegmentWrite(): void {
  if (primed) return;
  primed = true;
  primeLz4();
  const segment = madeUpSegment();
  // The first rounds only get each function its feedback vector, on a few terms; the last takes
  // every branch. Little enough work that V8 optimises nothing here: each function is compiled
  // once, on the real terms, with the primer's feedback and theirs.
  const few = madeUpSegment(FEW);
  for (let round = 0; round < ROUNDS; round++) {
    const last = round === ROUNDS - 1;
    primeByteWriter();
    for (let i = 0; i < NORM_LENGTHS.length; i++) lengthToNorm(NORM_LENGTHS[i]);
    sortedTermIds((last ? segment : few).unsorted);
    writeMadeUpSegment(last ? segment : few, last);
  }
}

let detached = false;

/**
 * Detaches a throwaway ArrayBuffer, once per thread (module instance), before the thread's hot
 * code is compiled.
 *
 * Why: until the first ArrayBuffer of an isolate is detached, V8 compiles typed-array accesses
 * without a check for a detached buffer, and the first detach (a transfer to another thread)
 * throws away every optimised function that relied on that: all of them that touch a typed array.
 * A bulk-load thread's first detach was its first segment reply, which transfers the segment's
 * files: about 190 functions of the line reader, the tokenizer, the vocabulary and the write-out
 * were compiled again on the thread (it compiles its own code) for the rest of the load, 10-14%
 * of `index file`'s CPU on npm and Debian, where each thread flushes twice. A thread whose only
 * flush was its last paid nothing. Detached first, each function is compiled once, with the checks.
 */
export function primeBufferDetaching(): void {
  if (detached) return;
  detached = true;
  const spare = new ArrayBuffer(8);
  structuredClone(spare, { transfer: [spare] });
}

/** Terms of the first rounds: two of each kind (see {@link madeUpSegment}). */
const FEW = 8;

/** Field lengths through each branch of the norm's encoding. */
const NORM_LENGTHS = [0, 1, 3, 7, 23, 24, 25, 100, 1000, 70000];

/** A string made at run time, as the real terms are (not an internalized literal). */
function made(units: readonly number[]): string {
  return String.fromCharCode(...units);
}

/**
 * Terms that take every branch of the term sort and the dictionary's entry: shared prefixes longer
 * than a sort key, ties in a run of 32 or more (the sort's string comparison), units above 126 (the
 * capped key unit), non-ASCII and a surrogate pair, in no order.
 */
function madeUpTerms(): string[] {
  const terms: string[] = [];
  const a = 'a'.charCodeAt(0);
  for (let i = 0; i < 40; i++) terms.push(made([0x70, 0x72, 0x65, 0x66, 0x69, 0x78, a + (i % 26), a + ((i * 7) % 26)]));
  for (let i = 0; i < 36; i++) terms.push(made([0x7a, 0xe9, a + (i % 26), 0xe9, a + Math.floor(i / 26)]));
  terms.push(made([0x7a, 0xd83d, 0xde00, a]), made([0x7a, 0xd83d, 0xde01]), made([0x31, 0x32]), made([0x31]));
  return [...new Set(terms)];
}

/** Grows small buffers through each of their writes, so the growth branch has feedback where it is inlined. */
function primeByteWriter(): void {
  const out = new ByteWriter(16);
  const values = Int32Array.of(1, 5, 9, 200, 70000);
  const runs = Int32Array.of(2, 3);
  for (let i = 0; i < 4; i++) {
    out.reserve(40);
    out.advance(out.length + 40);
    out.writeByte(i);
    out.writeVarint(1 << (7 * i));
    out.writeBytes(new Uint8Array(20));
    out.writeVarintDeltas(values, 0, 5);
    out.writeVarintDeltaRuns(values, 0, runs, 0, 2, 5);
  }
}

const MAX_DOC = 600;

/** The made-up segment's terms and postings, computed once (so that the rounds themselves loop little). */
interface MadeUpSegment {
  readonly unsorted: readonly string[];
  readonly terms: readonly string[];
  /** Per term: its doc count, docs and frequencies. */
  readonly counts: Int32Array;
  readonly docs: readonly Int32Array[];
  readonly freqs: readonly Int32Array[];
  readonly positions: Int32Array;
  readonly norms: Uint8Array;
}

/**
 * Terms in one doc (with one to three positions), in 2 to 12 docs (one postings block) and in
 * more than 128 (a skip table and impacts), with positions ascending overall (so each doc's ascend too; deltas of one and two
 * varint bytes).
 */
function madeUpSegment(termCount?: number): MadeUpSegment {
  const unsorted = madeUpTerms().slice(0, termCount);
  const terms = [...unsorted].sort();
  const counts = new Int32Array(terms.length);
  const docs: Int32Array[] = [];
  const freqs: Int32Array[] = [];
  for (let t = 0; t < terms.length; t++) {
    const kind = t % 4;
    const count = kind < 2 ? 1 : kind === 2 ? 2 + (t % 11) : t < 4 * FEW ? 2 : 130 + t;
    // Terms of one doc: kind 0 through addSingleDocTerm, kind 1 through addTerm (three positions).
    const step = Math.floor(MAX_DOC / count);
    const d = new Int32Array(count);
    const f = new Int32Array(count);
    for (let i = 0; i < count; i++) {
      d[i] = i * step + (t % step);
      f[i] = kind === 1 ? 3 : 1 + ((i + t) % 4);
    }
    counts[t] = count;
    docs.push(d);
    freqs.push(f);
  }
  const positions = new Int32Array(4 * MAX_DOC);
  for (let i = 0; i < positions.length; i++) positions[i] = 3 * i + 1;
  const norms = new Uint8Array(MAX_DOC);
  for (let d = 0; d < MAX_DOC; d++) norms[d] = (d * 37) & 0xff;
  return { unsorted, terms, counts, docs, freqs, positions, norms };
}

/**
 * Writes the made-up segment (an `_id` field of singleton terms and a text field), then encodes
 * every file, stored fields with a few documents when `withStored`.
 */
function writeMadeUpSegment(segment: MadeUpSegment, withStored: boolean): void {
  const { terms, counts, docs, freqs, positions, norms } = segment;
  const writer = new SegmentWriter('prime', MAX_DOC);
  writer.startField('_id', IndexOptions.docs, null, null);
  for (let t = 0; t < terms.length; t++) writer.addSingletonTerm(terms[t], t);
  writer.startField('text', IndexOptions.docsFreqsPositions, norms, { docCount: MAX_DOC, sumTotalTermFreq: 4 * MAX_DOC });
  for (let t = 0; t < terms.length; t++) {
    if (t % 4 === 0) writer.addSingleDocTerm(terms[t], docs[t][0], freqs[t][0], positions, t);
    else writer.addTerm(terms[t], counts[t], docs[t], freqs[t], positions);
  }
  if (withStored) for (let d = 0; d < 40; d++) writer.stored.addRawBytes(new Uint8Array(30).fill(0x61 + (d % 3)));
  writer.finish();
}
