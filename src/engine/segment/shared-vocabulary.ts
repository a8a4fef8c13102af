/**
 * Raw token spans to terms, learned once per thread and analyzer instead of once per segment
 * buffer: every field inverter of one analyzer (a bulk-load worker's `name`, `summary` and
 * `description`, and each segment after the last) looks its spans up here. A span seen before,
 * in any field of any buffer, costs a probe of one typed-array table; the analyzer's filters run,
 * and a string is made, only for a span new to the thread.
 *
 * Terms get ordinals (two spans with one term, "Runs" and "running", share one), which an
 * inverter maps to its own term ids. The table is bounded: past {@link MAX_SPANS} spans or
 * {@link MAX_CHARS} code units it starts again empty under a new {@link SharedVocabulary.epoch},
 * so memory stays flat on text with an endless vocabulary (source code, ids).
 */
import type { Analyzer } from '../analysis/analyzer.js';
import { spanTerm } from '../analysis/analyzer.js';
import { hashSpan } from '../analysis/span-hash.js';
import { ABSENT, RawTokenTable } from './raw-token-table.js';

/** Spans held before the vocabulary starts again: covers the whole of most corpora's words. */
export const MAX_SPANS = 1 << 17;
/** Code units of span keys held before the vocabulary starts again (2 MB of keys). */
export const MAX_CHARS = 1 << 20;

/** Spans the span table has room for at first (it grows by doubling, rehashing 2k-64k spans). */
const FIRST_SPANS = 1 << 13;

/** What a span of {@link SharedVocabulary.ordinal} the analyzer drops maps to. */
export const DROPPED = -1;

/** One analyzer's spans and terms in this thread. */
export class SharedVocabulary {
  /** Bumped each time the vocabulary starts again; ordinals of an earlier epoch mean nothing now. */
  epoch = 0;
  /** Term by ordinal. */
  terms: string[] = [];
  private table: RawTokenTable;
  /**
   * Term -> ordinal, over typed arrays as the span table is: a new span's term is looked up here
   * (tens of thousands of times a load), and a `Map` of strings costs a few cache misses a lookup
   * (bucket, entry, the key string) where this table's probe has a short key in its slot.
   */
  private ordinals: RawTokenTable;
  /** The empty term, which {@link ordinals} cannot key (an empty key marks a free slot): its ordinal, or -1. */
  private emptyOrdinal = -1;
  /** Raw token -> ordinal, for the tokens {@link tokenOrdinal} keys by string. */
  private tokenOrdinals = new Map<string, number>();

  /**
   * @param normalize the analyzer's filter chain for one raw token (null: dropped).
   * @param maxSpans spans held before the vocabulary starts again. A vocabulary bounded below
   *   {@link MAX_SPANS} (the field inverter's warm-up) also starts its tables small, so that a few
   *   words take the paths a thread's load takes late: probes past a taken slot, tables that grow,
   *   a new epoch.
   */
  constructor(
    private readonly normalize: (token: string) => string | null,
    private readonly maxSpans = MAX_SPANS,
  ) {
    this.table = this.spanTable();
    this.ordinals = this.termTable();
  }

  /**
   * Starts at {@link FIRST_SPANS} and grows with what the thread learns, rather than made for
   * {@link MAX_SPANS} up front: a thread of an npm load learns 50-60k spans, and a table of the
   * size it needs keeps more of its slots in the caches (the probe of a span is a cache miss
   * more often than not) than one of 4 MB at a fifth full.
   */
  private spanTable(): RawTokenTable {
    return new RawTokenTable(this.maxSpans < MAX_SPANS ? 4 : FIRST_SPANS);
  }

  private termTable(): RawTokenTable {
    return new RawTokenTable(this.maxSpans < MAX_SPANS ? 4 : undefined);
  }

  /** Bytes held by the span table's arrays (strings and the term map are not counted). */
  get bytes(): number {
    return this.table.bytes;
  }

  /**
   * The term ordinal of the token `spanTerm(text, start, end, flags)`, or {@link DROPPED}. `flags`
   * may have only `SpanFlags.upperAscii` set; `hash` is the span's `hashSpan`. May start a new
   * epoch (before it answers), which the caller must check before it uses an ordinal.
   */
  ordinal(text: string, start: number, end: number, flags: number, hash: number): number {
    const found = this.table.find(text, start, end, flags !== 0, hash);
    return found === ABSENT ? this.learn(text, start, end, flags, hash) : found;
  }

  /**
   * The term ordinal of `token`, a raw token the span table cannot key (its lowercasing is more
   * than ASCII, or it had a curly apostrophe: `spanTerm` has made it), or {@link DROPPED}. Kept
   * by the token's string, so such tokens map to the same ordinals as spans do and an inverter
   * needs no term map of its own. May start a new epoch, as {@link ordinal} may.
   */
  tokenOrdinal(token: string): number {
    let ordinal = this.tokenOrdinals.get(token);
    if (ordinal === undefined) {
      if (this.tokenOrdinals.size >= this.maxSpans) this.restart();
      ordinal = this.termOrdinal(this.normalize(token), 0);
      this.tokenOrdinals.set(token, ordinal);
    }
    return ordinal;
  }

  /**
   * {@link ordinal} for a token of ASCII bytes, `bytes[start, end)` (letters, digits and
   * apostrophes, as the standard tokenizer's byte scan reports them), with its span `hash`: the
   * same ordinal the token's string gets. A token new to the thread is made into a string once.
   */
  byteOrdinal(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const found = this.table.findBytes(bytes, start, end, hash);
    return found === ABSENT ? this.learnBytes(bytes, start, end, hash) : found;
  }

  /** Whether the span table holds as many spans or key characters as it may: the next one learned starts it again. */
  private spansFull(): boolean {
    return this.table.size >= this.maxSpans || this.table.keyChars >= MAX_CHARS;
  }

  private learnBytes(bytes: Uint8Array, start: number, end: number, hash: number): number {
    if (this.spansFull()) {
      this.restart();
      this.table.findBytes(bytes, start, end, hash);
    }
    // Lowercased as read: OR 0x20 maps A-Z to a-z and keeps digits and the apostrophe.
    let token = '';
    for (let i = start; i < end; i++) token += String.fromCharCode(bytes[i] | 0x20);
    const term = this.normalize(token);
    // A term the filters left as the token (most words: no possessive, no suffix the stemmer
    // takes) is keyed in the term table by the span's bytes and hash too.
    const ordinal = term === token ? this.spanTermOrdinal(bytes, start, end, hash, token) : this.termOrdinal(term, 0);
    this.table.addBytes(bytes, start, end, hash, ordinal);
    return ordinal;
  }

  /** {@link termOrdinal} of `term`, the lowercased span `bytes[start, end)` of hash `hash`. */
  private spanTermOrdinal(bytes: Uint8Array, start: number, end: number, hash: number, term: string): number {
    let ordinal = this.ordinals.findBytes(bytes, start, end, hash);
    if (ordinal === ABSENT) {
      ordinal = this.newOrdinal(term);
      this.ordinals.addBytes(bytes, start, end, hash, ordinal);
    }
    return ordinal;
  }

  private learn(text: string, start: number, end: number, flags: number, hash: number): number {
    if (this.spansFull()) {
      this.restart();
      this.table.find(text, start, end, flags !== 0, hash);
    }
    const token = spanTerm(text, start, end, flags);
    const term = this.normalize(token);
    const ordinal = this.termOrdinal(term, term === token ? hash : 0);
    this.table.add(text, start, end, flags !== 0, hash, ordinal);
    return ordinal;
  }

  /**
   * The ordinal of `term` (a new one if it has none), or {@link DROPPED} for null. `knownHash`:
   * the term's `hashSpan` when the caller has it (a term equal to its lowercase span), else 0.
   */
  private termOrdinal(term: string | null, knownHash: number): number {
    if (term === null) return DROPPED;
    if (term.length === 0) {
      if (this.emptyOrdinal < 0) this.emptyOrdinal = this.newOrdinal(term);
      return this.emptyOrdinal;
    }
    const hash = knownHash !== 0 ? knownHash : hashSpan(term, 0, term.length);
    let ordinal = this.ordinals.find(term, 0, term.length, false, hash);
    if (ordinal === ABSENT) {
      ordinal = this.newOrdinal(term);
      this.ordinals.add(term, 0, term.length, false, hash, ordinal);
    }
    return ordinal;
  }

  private newOrdinal(term: string): number {
    this.terms.push(term);
    return this.terms.length - 1;
  }

  /** Starts again empty under a new epoch. */
  private restart(): void {
    this.epoch++;
    this.terms = [];
    this.ordinals = this.termTable();
    this.emptyOrdinal = -1;
    this.tokenOrdinals = new Map();
    this.table = this.spanTable();
  }
}

/** Vocabularies by analyzer instance (one per analyzer name: getAnalyzer shares instances). */
const vocabularies = new WeakMap<Analyzer, SharedVocabulary>();

/** The vocabulary this thread keeps for `analyzer`, made on first use with `normalize`. */
export function sharedVocabulary(analyzer: Analyzer, normalize: (token: string) => string | null): SharedVocabulary {
  let vocabulary = vocabularies.get(analyzer);
  if (vocabulary === undefined) {
    vocabulary = new SharedVocabulary(normalize);
    vocabularies.set(analyzer, vocabulary);
  }
  return vocabulary;
}
