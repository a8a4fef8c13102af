/**
 * The in-memory inverted index of one full-text field while documents are buffered: each term
 * maps to its docs, frequencies and positions, appended as documents arrive (docs arrive in
 * increasing doc id order, so postings are built already sorted by doc).
 *
 * Nothing here allocates per token: a token costs one hash lookup (raw token -> term ordinal)
 * and one int written into a shared slab. Per-term state lives in one interleaved typed array indexed by
 * the term ordinal, and the term dictionary is sorted once, when the buffer is written.
 */
import type { Analyzer, SpanSink, TokenSink } from '../analysis/analyzer.js';
import { maxTokenLength, SpanFlags, spanTerm } from '../analysis/analyzer.js';
import { asciiByteClasses, byteApostrophe, byteEscape, byteSeparator } from '../analysis/char-class.js';
import { FNV_OFFSET, FNV_PRIME } from '../analysis/span-hash.js';
import { scanStandard } from '../analysis/standard-analyzer.js';
import { lengthToNorm } from '../codec/norms/small-float.js';
import { IndexOptions } from '../codec/postings/postings-format.js';
import type { TimeSlicer } from '../event-loop.js';
import type { SegmentWriter } from './segment-writer.js';
import { DROPPED, SharedVocabulary, sharedVocabulary } from './shared-vocabulary.js';
import { sortedTermIds } from './term-order.js';

/** Position increment between the values of a multi-valued field, so phrases never span values. */
export const POSITION_GAP = 100;

/**
 * Slice sizes (in ints) by level: a term's postings start in a 4-int slice and each further slice
 * is larger, up to 1024 ints, so rare terms waste little and frequent ones chain few slices. The
 * last int of a slice holds the slab offset of the next one (Lucene's IntBlockPool).
 */
const SLICE_SIZES = Int32Array.of(4, 8, 16, 32, 64, 128, 256, 512, 1024);
const MAX_LEVEL = SLICE_SIZES.length - 1;

/**
 * Per-term state, interleaved in one array (one cache line per term, where parallel arrays cost a
 * miss each): its next free slot, the link slot of its current slice, the slice level, ints
 * written (markers and positions), the last doc it was seen in, and its first slice.
 */
const TERM = 8;
const TAIL = 0;
const END = 1;
const LEVEL = 2;
const COUNT = 3;
const LAST_DOC = 4;
const HEAD = 5;

/**
 * A document's values as the bytes they were read from, offered to each field's inverter before
 * its strings are (`SegmentBuffer.add`): `invert` inverts the doc's value of `inverter.field`
 * from its bytes (`FieldInverter.invertAscii`) and returns true, or returns false when that value
 * must go through the string path.
 */
export interface ByteValues {
  invert(inverter: FieldInverter, docId: number): boolean;
}

/** Inverts one field of the buffered documents. */
export class FieldInverter {
  /**
   * Term -> id. Not kept while every term came from a vocabulary ordinal of one epoch (an ordinal
   * stands for a term no other ordinal has, so an unmapped ordinal is a new term): built on first
   * need, by the string path or a new epoch, and kept from then on.
   */
  private termIds: Map<string, number> | null = null;
  private readonly terms: string[] = [];
  /**
   * Every term's stream in one slab of slices: a new doc is written as its marker `-(doc + 1)`,
   * followed by the positions of the term in that doc.
   */
  private slab = new Int32Array(1 << 16);
  private slabUsed = 0;
  /** {@link TERM} ints per term id. */
  private termState = new Int32Array(1024 * TERM);
  /** Field length (token count) per doc id; 0 when the doc has no token in this field. */
  private lengths = new Int32Array(1024);
  private lengthsUsed = 0;
  private docCount = 0;
  private sumTotalTermFreq = 0;
  private tokens = 0;
  private currentDoc = 0;
  private currentLength = 0;
  private readonly sink: TokenSink;
  /** Raw token -> term id (-1: dropped), when the analyzer's filters can be cached per token. */
  private readonly rawIds = new Map<string, number>();
  /**
   * Term ordinal of the thread's {@link SharedVocabulary} -> term id + 1 (0: not mapped yet), when
   * the analyzer can scan spans; valid for the vocabulary's epoch {@link vocabularyEpoch}.
   */
  private localIds = new Int32Array(0);
  private vocabularyEpoch = 0;
  /**
   * The vocabulary, when the analyzer's tokenizer is the standard one's span scan, which
   * {@link invertAscii} then repeats over bytes; null when only strings can be inverted.
   */
  private readonly byteVocabulary: SharedVocabulary | null = null;
  private readonly tokenize: Analyzer['analyze'];
  /**
   * The analyzer, until this inverter's first document, when its span path is to be warmed up
   * ({@link warmUp}, once per analyzer and thread): not at construction, since a thread may make
   * inverters it never feeds (the `index file` event loop's writer does).
   */
  private coldAnalyzer: Analyzer | null = null;

  /**
   * @param scratchSpans 0 (the default): the thread's shared vocabulary of `analyzer`. Else a
   *   vocabulary of its own, bounded to this many spans, which nothing else sees ({@link warmUp}).
   */
  constructor(
    readonly field: string,
    analyzer: Analyzer,
    scratchSpans = 0,
  ) {
    if (scratchSpans > 0) {
      // A warm-up's inverter starts small, so its few docs grow every array as a load does late.
      this.slab = new Int32Array(16);
      this.termState = new Int32Array(4 * TERM);
      this.lengths = new Int32Array(2);
    }
    // A tokenizer alone (`standard`) that scans spans takes the span path with no filter.
    const scanOnly: Analyzer['decomposed'] = analyzer.scan === undefined ? undefined : { tokenize: (text: string, sink: TokenSink, start?: number) => analyzer.analyze(text, sink, start), normalize: (token: string) => token, scan: analyzer.scan };
    const decomposed = analyzer.decomposed ?? scanOnly;
    if (decomposed === undefined) {
      this.tokenize = (text, sink, start) => analyzer.analyze(text, sink, start);
      this.sink = (term, position) => {
        this.addToken(this.termId(term), position);
      };
    } else {
      const scan = decomposed.scan;
      const rawId = (token: string): number => {
        let id = this.rawIds.get(token);
        if (id === undefined) {
          const term = decomposed.normalize(token);
          id = term === null ? -1 : this.termId(term);
          this.rawIds.set(token, id);
        }
        return id;
      };
      this.sink = (token, position) => {
        const id = rawId(token);
        if (id >= 0) this.addToken(id, position);
      };
      if (scan === undefined) {
        this.tokenize = (text, sink, start) => decomposed.tokenize(text, sink, start);
      } else {
        // Spans: a token the thread has seen before (in any field of any buffer) is found from the
        // text's characters, with no string made.
        const normalize = decomposed.normalizeUncached ?? ((token: string) => decomposed.normalize(token));
        const vocabulary = scratchSpans > 0 ? new SharedVocabulary(normalize, scratchSpans) : sharedVocabulary(analyzer, normalize);
        this.vocabularyEpoch = vocabulary.epoch;
        if (scan === scanStandard) this.byteVocabulary = vocabulary;
        let text = '';
        const spanSink: SpanSink = (position, start, end, flags, hash) => {
          // Tokens that need more than ASCII lowercasing are made as strings, and the vocabulary
          // keys those by string: either way the token has an ordinal of the vocabulary.
          const ordinal =
            (flags & (SpanFlags.upperOther | SpanFlags.curlyApostrophe)) === 0
              ? vocabulary.ordinal(text, start, end, flags, hash)
              : vocabulary.tokenOrdinal(spanTerm(text, start, end, flags));
          if (ordinal !== DROPPED) this.addOrdinal(vocabulary, ordinal, position);
        };
        this.tokenize = (value, _sink, start) => {
          text = value;
          return scan(value, spanSink, start);
        };
        if (scratchSpans === 0) this.coldAnalyzer = analyzer;
      }
    }
  }

  /** Runs {@link warmUp} for `analyzer` if no inverter of this thread has. */
  private warm(analyzer: Analyzer): void {
    this.coldAnalyzer = null;
    if (warmed.has(analyzer)) return;
    warmed.add(analyzer);
    warmUp(analyzer);
  }

  /** Adds a token of vocabulary ordinal `ordinal` (not {@link DROPPED}) at `position`. */
  private addOrdinal(vocabulary: SharedVocabulary, ordinal: number, position: number): void {
    if (vocabulary.epoch !== this.vocabularyEpoch) this.forgetOrdinals(vocabulary.epoch);
    let id = ordinal < this.localIds.length ? this.localIds[ordinal] - 1 : -1;
    if (id < 0) id = this.mapOrdinal(vocabulary, ordinal);
    this.addToken(id, position);
  }

  /** The id of `term`, a new one if it has none yet. */
  private termId(term: string): number {
    return this.termMap().get(term) ?? this.newTerm(term);
  }

  /** {@link termIds}, built from the terms if it is not kept yet; kept from now on. */
  private termMap(): Map<string, number> {
    return (this.termIds ??= new Map(this.terms.map((term, id) => [term, id])));
  }

  /** Maps a vocabulary ordinal to its term's id, which may exist already (string path, earlier epoch). */
  private mapOrdinal(vocabulary: SharedVocabulary, ordinal: number): number {
    if (ordinal >= this.localIds.length) this.localIds = grow(this.localIds, Math.max(ordinal + 1, 1024));
    const term = vocabulary.terms[ordinal];
    const id = this.termIds === null ? this.newTerm(term) : this.termId(term);
    this.localIds[ordinal] = id + 1;
    return id;
  }

  /** The vocabulary started again: its ordinals are new, the terms and their ids stay. */
  private forgetOrdinals(epoch: number): void {
    this.termMap();
    this.localIds.fill(0);
    this.vocabularyEpoch = epoch;
  }

  /** Number of distinct terms buffered. */
  get termCount(): number {
    return this.terms.length;
  }

  /** Tokens buffered, a proxy for memory use. */
  get tokenCount(): number {
    return this.tokens;
  }

  /** Bytes held by the typed arrays (slab and per-term state); strings and maps are not counted. */
  get arrayBytes(): number {
    return this.slab.byteLength + this.termState.byteLength + this.lengths.byteLength + this.localIds.byteLength;
  }

  /** Analyzes the values of `docId` (docs must arrive in increasing order) into the postings. */
  invert(docId: number, values: readonly (string | number | boolean)[]): void {
    if (this.coldAnalyzer !== null) this.warm(this.coldAnalyzer);
    this.currentDoc = docId;
    this.currentLength = 0;
    let position = 0;
    for (const value of values) {
      position = this.tokenize(typeof value === 'string' ? value : String(value), this.sink, position) + POSITION_GAP;
    }
    this.endDoc(docId);
  }

  /**
   * {@link invert} for a doc whose one value is the JSON string whose contents (between the
   * quotes) are `bytes[start, end)`: ASCII, with no escapes but `\" \\ \b \f \n \r \t` (each of
   * which decodes to a character that separates tokens). Returns false, having done nothing,
   * when the analyzer is not one the byte scan stands for; the caller then passes the string.
   */
  invertAscii(docId: number, bytes: Uint8Array, start: number, end: number): boolean {
    if (this.coldAnalyzer !== null) this.warm(this.coldAnalyzer);
    const vocabulary = this.byteVocabulary;
    if (vocabulary === null) return false;
    this.currentDoc = docId;
    this.currentLength = 0;
    this.scanAscii(vocabulary, bytes, start, end);
    this.endDoc(docId);
    return true;
  }

  /**
   * The standard tokenizer (`scanStandard` of standard-analyzer.ts) over ASCII bytes, each token
   * looked up in the vocabulary from the bytes and added, with no string and no call per token
   * through a sink. On ASCII the tokenizer's rules come down to: a token is a run of letters and
   * digits, with an apostrophe kept between two of them; tokens longer than `maxTokenLength` take
   * a position but are dropped. The span hash is folded as the bytes are read, as `scan` does.
   */
  private scanAscii(vocabulary: SharedVocabulary, bytes: Uint8Array, start: number, end: number): void {
    const classes = asciiByteClasses;
    let position = 0;
    let i = start;
    while (i < end) {
      const first = classes[bytes[i]];
      if (first === byteSeparator || first === byteApostrophe) {
        i++;
        continue;
      }
      if (first === byteEscape) {
        i += 2;
        continue;
      }
      const begin = i;
      // OR 0x20 lowercases A-Z and keeps a-z, 0-9 and the apostrophe: the hash of the lowercased span.
      let hash = Math.imul(FNV_OFFSET ^ (bytes[i] | 0x20), FNV_PRIME);
      i++;
      while (i < end) {
        const c = bytes[i];
        // Most word bytes are a-z or 0-9: no table, nothing to lowercase (a fifth off the bare scan).
        if ((c - 0x61) >>> 0 < 26 || (c - 0x30) >>> 0 < 10) {
          hash = Math.imul(hash ^ c, FNV_PRIME);
          i++;
          continue;
        }
        const cls = classes[c];
        if (cls === byteSeparator || cls === byteEscape) break;
        if (cls === byteApostrophe) {
          const after = i + 1 < end ? classes[bytes[i + 1]] : byteSeparator;
          if (after === byteSeparator || after === byteApostrophe || after === byteEscape) break;
        }
        hash = Math.imul(hash ^ (c | 0x20), FNV_PRIME);
        i++;
      }
      if (i - begin <= maxTokenLength) {
        const ordinal = vocabulary.byteOrdinal(bytes, begin, i, hash);
        if (ordinal !== DROPPED) this.addOrdinal(vocabulary, ordinal, position);
      }
      position++;
    }
  }

  /** Records the field length of `docId`, whose tokens are added. */
  private endDoc(docId: number): void {
    if (docId >= this.lengths.length) this.lengths = grow(this.lengths, docId + 1);
    // Docs without this field keep length 0 (the array is zero-filled).
    this.lengths[docId] = this.currentLength;
    this.lengthsUsed = docId + 1;
    if (this.currentLength > 0) {
      this.docCount++;
      this.sumTotalTermFreq += this.currentLength;
      this.tokens += this.currentLength;
    }
  }

  private newTerm(term: string): number {
    const id = this.terms.length;
    this.termIds?.set(term, id);
    this.terms.push(term);
    const at = id * TERM;
    if (at >= this.termState.length) this.termState = grow(this.termState, at * 2);
    const start = this.allocate(SLICE_SIZES[0]);
    const state = this.termState;
    state[at + HEAD] = start;
    state[at + TAIL] = start;
    state[at + END] = start + SLICE_SIZES[0] - 1;
    state[at + LEVEL] = 0;
    state[at + COUNT] = 0;
    state[at + LAST_DOC] = -1;
    return id;
  }

  private addToken(id: number, position: number): void {
    this.currentLength++;
    const state = this.termState;
    const at = id * TERM;
    if (state[at + LAST_DOC] !== this.currentDoc) {
      state[at + LAST_DOC] = this.currentDoc;
      const tail = state[at + TAIL];
      // The term's first token in this doc: its marker and position go in together when the
      // slice has room for both (the common case), with one read and write of the term's state.
      if (tail + 1 < state[at + END]) {
        const slab = this.slab;
        slab[tail] = -(this.currentDoc + 1);
        slab[tail + 1] = position;
        state[at + TAIL] = tail + 2;
        state[at + COUNT] += 2;
        return;
      }
      this.append(at, -(this.currentDoc + 1));
    }
    this.append(at, position);
  }

  /** Appends one int to the stream of the term whose state is at `at`, chaining a larger slice when the current one is full. */
  private append(at: number, value: number): void {
    const state = this.termState;
    let tail = state[at + TAIL];
    if (tail === state[at + END]) {
      const level = state[at + LEVEL] < MAX_LEVEL ? state[at + LEVEL] + 1 : MAX_LEVEL;
      const size = SLICE_SIZES[level];
      const next = this.allocate(size);
      this.slab[tail] = next;
      state[at + LEVEL] = level;
      state[at + END] = next + size - 1;
      tail = next;
    }
    this.slab[tail] = value;
    state[at + TAIL] = tail + 1;
    state[at + COUNT]++;
  }

  private allocate(size: number): number {
    const start = this.slabUsed;
    if (start + size > this.slab.length) this.slab = grow(this.slab, start + size);
    this.slabUsed = start + size;
    return start;
  }

  /** Writes the field's terms, in sorted order, into a segment of `maxDoc` docs. */
  async writeTo(writer: SegmentWriter, maxDoc: number, slicer: TimeSlicer): Promise<void> {
    const norms = normsOf(this.lengths, this.lengthsUsed, maxDoc);
    writer.startField(this.field, IndexOptions.docsFreqsPositions, norms, {
      docCount: this.docCount,
      sumTotalTermFreq: this.sumTotalTermFreq,
    });
    const sorted = sortedTermIds(this.terms);
    // The loop that yields is async, the work is not: V8 optimises a resumable function late or
    // never while it runs (it is called once per field), so the loops over terms and postings
    // live in plain methods, which are hot after a few terms.
    // Room for the longest stream up front: growing in `decode` is a branch the first flush reaches
    // late, which throws away its compiled code (see write-primer.ts).
    const out = new TermPostings(this.maxStreamLength());
    for (let from = 0; from < sorted.length; ) {
      from = this.writeTerms(writer, sorted, from, out);
      if (from < sorted.length && slicer.due()) await slicer.yield();
    }
  }

  /**
   * Writes terms `sorted[from..]` until about 4,096 ints of postings are decoded (the clock is
   * read between such runs, not per term: most terms take well under a microsecond); returns
   * where it stopped.
   */
  private writeTerms(writer: SegmentWriter, sorted: Int32Array, from: number, out: TermPostings): number {
    const terms = this.terms;
    let work = 0;
    let i = from;
    const state = this.termState;
    const slab = this.slab;
    for (; i < sorted.length && work < 4096; i++) {
      const id = sorted[i];
      const count = state[id * TERM + COUNT];
      work += count + 16;
      // One doc with one or two positions (most terms of a segment): all in the term's first
      // slice, read where they are. Of three ints, the third is a second position or a second
      // doc's marker; of two, the second is the position (one test for both, so that neither
      // branch is one the first flush reaches late).
      if (count <= 3) {
        const head = state[id * TERM + HEAD];
        if (slab[head + count - 1] >= 0) {
          writer.addSingleDocTerm(terms[id], -slab[head] - 1, count - 1, slab, head + 1);
          continue;
        }
      }
      // One doc with three positions or more is rare: `addTerm` writes it as `addSingleDocTerm`
      // would (the same bytes), and a branch of its own here would be one the first flush reaches
      // late, throwing away this loop's compiled code.
      writer.addTerm(terms[id], this.decode(id, count, out), out.docs, out.freqs, out.positions);
    }
    return i;
  }

  /** The most ints any term's stream holds (markers and positions). */
  private maxStreamLength(): number {
    const state = this.termState;
    let max = 0;
    for (let at = COUNT; at < this.terms.length * TERM; at += TERM) if (state[at] > max) max = state[at];
    return max;
  }

  /** Decodes the `count` ints of term `id`'s stream into `out`; returns its number of docs. */
  private decode(id: number, count: number, out: TermPostings): number {
    // Every int is a marker or a position: `count` bounds both.
    if (count > out.positions.length) out.reserve(count);
    const { docs, freqs, positions } = out;
    const slab = this.slab;
    let nDocs = 0;
    let nPositions = 0;
    let level = 0;
    let p = this.termState[id * TERM + HEAD];
    let left = count;
    // A doc's frequency is the number of positions since its marker, stored at the next marker.
    let docPositions = 0;
    // Slice by slice: the last int of each links to the next.
    for (;;) {
      const sliceEnd = p + SLICE_SIZES[level] - 1;
      const end = left < sliceEnd - p ? p + left : sliceEnd;
      left -= end - p;
      for (; p < end; p++) {
        const v = slab[p];
        if (v < 0) {
          if (nDocs > 0) freqs[nDocs - 1] = nPositions - docPositions;
          docPositions = nPositions;
          docs[nDocs++] = -v - 1;
        } else {
          positions[nPositions++] = v;
        }
      }
      if (left === 0) {
        freqs[nDocs - 1] = nPositions - docPositions;
        return nDocs;
      }
      p = slab[sliceEnd];
      if (level < MAX_LEVEL) level++;
    }
  }
}

/** One term's decoded postings: scratch arrays reused from term to term. */
class TermPostings {
  docs: Int32Array;
  freqs: Int32Array;
  positions: Int32Array;

  /** @param count docs and positions to make room for (at least 1,024) */
  constructor(count: number) {
    const size = Math.max(count, 1024);
    this.docs = new Int32Array(size);
    this.freqs = new Int32Array(size);
    this.positions = new Int32Array(size);
  }

  /** Makes room for `count` docs and positions. */
  reserve(count: number): void {
    this.docs = new Int32Array(count * 2);
    this.freqs = new Int32Array(count * 2);
    this.positions = new Int32Array(count * 2);
  }
}

/**
 * The norm byte of each of `maxDoc` docs from the field lengths of the first `used` (the rest have
 * none). Apart from the async {@link FieldInverter.writeTo}, which V8 compiles late.
 */
/** Analyzers whose span path {@link warmUp} has run in this thread. */
const warmed = new WeakSet<Analyzer>();

/**
 * ASCII text (a JSON string's contents, escapes included) that takes the byte path's branches:
 * escapes, apostrophes inside, after and around words, capitals, stop words, possessives, words
 * the stemmer changes or skips, keys short enough for a slot and long ones for the arena, a token
 * too long to keep, and a word often enough to chain its postings past a first slice.
 */
const WARM_UP_ASCII = `Don't STOP: the Runner's 3D-printing toolkit\\n\\t\\"quoted\\" rock'n'roll a''b x' 'y it's ab I abcdefgh abcdefghi internationalization Internationalizations running runs ran easily generously ${'x'.repeat(maxTokenLength + 1)} ${'word '.repeat(12)}`;

/**
 * Text for the string path: case beyond ASCII, marks, curly apostrophes, astral letters, a lone
 * surrogate, single Han and Thai letters, one before a lone surrogate and one before an emoji
 * (runs of one letter: the segmenter, slow to make, is not called).
 */
const WARM_UP_TEXT = `Ünïcödé ÉCOLE naïve cafe\u0301 Straße l\u2019été Rock\u2019n\u2019roll \u{10400}\u{10428} x\ud800y \u4e2d \u0e44 \u4e2d\ud800 \u4e2d\u{1f600} ΣΊΣΥΦΟΣ ${WARM_UP_ASCII.replaceAll('\\', ' ')}`;

/**
 * Spans the warm-up vocabularies hold: the first more than the warm-up texts have (its later docs
 * find every span), the second fewer (it starts new epochs). Both start with small tables, which
 * grow and have probes pass taken slots.
 */
const WARM_UP_SPANS = [96, 24];

/**
 * Runs two scratch inverters of `analyzer`, each with a small vocabulary of its own, over
 * {@link WARM_UP_ASCII} and {@link WARM_UP_TEXT} before the thread's first document (5-8 ms of
 * CPU, some of it first uses a load pays anyway: the character tables), so that V8
 * has type feedback for the span path's branches when it first optimises them. Without it the
 * branches a load takes only later (a probe past a taken slot, a table that grows, a long key, a
 * second buffer's sink closure) each threw the optimised code away: a bulk thread, which compiles
 * on itself, compiled its scans and the vocabulary's probes 3-6 times a load, the string scan at
 * tens of ms a time. Nothing of the run stays but the code's feedback: the inverters and their
 * vocabularies are dropped, and no cache (the analyzer's memo, the segmenter's) is touched.
 */
function warmUp(analyzer: Analyzer): void {
  const bytes = Buffer.from(WARM_UP_ASCII, 'latin1');
  for (const spans of WARM_UP_SPANS) {
    const inverter = new FieldInverter('', analyzer, spans);
    // V8 keeps no feedback for a function until it has run a while (its first call, here).
    for (let doc = 0; doc < 4; ) {
      inverter.invertAscii(doc++, bytes, 0, bytes.length);
      inverter.invert(doc++, [WARM_UP_TEXT]);
    }
  }
}

function normsOf(lengths: Int32Array, used: number, maxDoc: number): Uint8Array {
  const norms = new Uint8Array(maxDoc);
  for (let d = 0; d < used; d++) norms[d] = lengthToNorm(lengths[d]);
  return norms;
}

/** A copy of `a` with room for at least `min` elements (at least double its length). */
function grow<T extends Int32Array | Uint8Array>(a: T, min: number): T {
  const grown = new (a.constructor as new (n: number) => T)(Math.max(min, a.length * 2));
  grown.set(a);
  return grown;
}
