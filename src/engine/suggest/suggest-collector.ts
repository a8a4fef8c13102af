/**
 * Index-time collection of completion candidates: the segment buffer hands each document's values
 * to {@link SuggestCollector.add}, and {@link SuggestCollector.encode} writes the `.sgt` file of
 * the flushed segment. It is a class of its own so that the buffer's inverting loop (which may move
 * to a worker) only calls it.
 */
import type { Analyzer } from '../analysis/analyzer.js';
import { SuggestionsWriter, sortKeys } from '../codec/suggestions/suggestions-writer.js';
import type { FieldValue } from '../schema/field-values.js';
import type { FieldMapping } from '../schema/mapping.js';
import type { SuggestMapping } from '../schema/text-options.js';
import { foldCase, joinWords, surfaceWords, wordNgrams } from './candidate-words.js';

/** Grows a typed array to at least `n` elements, doubling. */
function grow<T extends Int32Array>(a: T, n: number, make: (size: number) => T): T {
  if (n <= a.length) return a;
  const b = make(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}

/**
 * The candidates of one field while a segment is buffered, without an object per candidate: a
 * candidate is an ordinal (its key's index), and its docs are a chain of entries in typed arrays
 * (`entryDoc`, `entryNext`) from `first` to `last`, as the inverter keeps its postings.
 */
class FieldCandidates {
  private readonly ordOf = new Map<string, number>();
  private readonly keys: string[] = [];
  private readonly displays: string[] = [];
  private first = new Int32Array(1024);
  private last = new Int32Array(1024);
  private entryDoc = new Int32Array(4096);
  private entryNext = new Int32Array(4096);
  private entries = 0;

  constructor(
    readonly field: string,
    private readonly options: SuggestMapping,
    private readonly analyzer: Analyzer,
  ) {}

  get candidateCount(): number {
    return this.keys.length;
  }

  /** Bytes held: about 120 per candidate (key, display, map entry) and 8 per doc entry. */
  get estimatedBytes(): number {
    return this.keys.length * 120 + this.entries * 8;
  }

  add(docId: number, values: readonly FieldValue[]): void {
    const { minTerms, maxTerms, lowercase } = this.options;
    for (const value of values) {
      if (typeof value !== 'string') continue;
      const words = surfaceWords(this.analyzer, value);
      const folded = words.map(foldCase);
      wordNgrams(folded, minTerms, maxTerms, (start, n, key) => {
        let ord = this.ordOf.get(key);
        if (ord === undefined) {
          ord = this.keys.length;
          this.ordOf.set(key, ord);
          this.keys.push(key);
          if (!lowercase) this.displays.push(joinWords(words, start, n));
          this.first = grow(this.first, ord + 1, (k) => new Int32Array(k));
          this.last = grow(this.last, ord + 1, (k) => new Int32Array(k));
          this.first[ord] = this.last[ord] = this.append(docId);
          return;
        }
        // Docs arrive in increasing order: a candidate counts each doc once.
        const tail = this.last[ord];
        if (this.entryDoc[tail] === docId) return;
        const entry = this.append(docId);
        this.entryNext[tail] = entry;
        this.last[ord] = entry;
      });
    }
  }

  private append(docId: number): number {
    const e = this.entries++;
    this.entryDoc = grow(this.entryDoc, e + 1, (k) => new Int32Array(k));
    this.entryNext = grow(this.entryNext, e + 1, (k) => new Int32Array(k));
    this.entryDoc[e] = docId;
    this.entryNext[e] = -1;
    return e;
  }

  /** Writes the field's candidates in key order, leaving out `deleted` docs. */
  writeTo(writer: SuggestionsWriter, deleted: ReadonlySet<number>): void {
    writer.startField(this.field);
    const sorted = sortKeys([...this.keys]);
    const docs: number[] = [];
    for (const key of sorted) {
      const ord = this.ordOf.get(key)!;
      docs.length = 0;
      for (let e = this.first[ord]; e >= 0; e = this.entryNext[e]) {
        const d = this.entryDoc[e];
        if (deleted.size === 0 || !deleted.has(d)) docs.push(d);
      }
      if (docs.length > 0) writer.add(key, this.displays.length === 0 ? key : this.displays[ord], docs);
    }
  }
}

/** Completion candidates of the buffered documents, per field whose mapping asks for `suggest`. */
export class SuggestCollector {
  private readonly fields: FieldCandidates[] = [];

  constructor(private readonly analyzer: (name: string) => Analyzer) {}

  /** Starts collecting a field if its mapping has `suggest`; fields added later see only later docs. */
  addField(field: FieldMapping): void {
    if (field.suggest === null || field.baseType !== 'text') return;
    this.fields.push(new FieldCandidates(field.name, field.suggest, this.analyzer(field.suggest.analyzer)));
  }

  /** Whether any field collects candidates. */
  get active(): boolean {
    return this.fields.length > 0;
  }

  /** An estimate of the heap held, for the buffer's flush decision. */
  get estimatedBytes(): number {
    let bytes = 0;
    for (const f of this.fields) bytes += f.estimatedBytes;
    return bytes;
  }

  /** Adds the candidates of one document (doc ids increase from call to call). */
  add(docId: number, values: ReadonlyMap<string, readonly FieldValue[]>): void {
    for (const f of this.fields) {
      const v = values.get(f.field);
      if (v !== undefined && v.length > 0) f.add(docId, v);
    }
  }

  /**
   * The `.sgt` file of the flushed segment, leaving out `deleted` docs (replaced or deleted while
   * buffered, so never live again); null when no document gave a candidate.
   */
  encode(deleted: ReadonlySet<number>): Uint8Array | null {
    const writer = new SuggestionsWriter();
    for (const f of [...this.fields].sort((a, b) => (a.field < b.field ? -1 : 1))) f.writeTo(writer, deleted);
    return writer.size === 0 ? null : writer.finish();
  }
}
