/**
 * Index-time collection of completion candidates: the segment buffer hands each document's values
 * to {@link SuggestCollector.add}, and {@link SuggestCollector.encode} writes the `.sgt` file of
 * the flushed segment. It is a class of its own so that the buffer's inverting loop (which may move
 * to a worker) only calls it.
 */
import type { Analyzer } from '../analysis/analyzer.js';
import { SuggestionsWriter } from '../codec/suggestions/suggestions-writer.js';
import type { FieldValue } from '../schema/field-values.js';
import type { FieldMapping } from '../schema/mapping.js';
import type { SuggestMapping } from '../schema/text-options.js';
import { foldCase, surfaceWords, wordNgrams } from './candidate-words.js';

/** One candidate while a segment is buffered: the form first seen and the docs that hold it. */
interface Candidate {
  readonly display: string;
  readonly docs: number[];
}

class FieldCandidates {
  readonly candidates = new Map<string, Candidate>();
  /** Doc entries over all candidates, for the memory estimate. */
  postings = 0;

  constructor(
    readonly field: string,
    private readonly options: SuggestMapping,
    private readonly analyzer: Analyzer,
  ) {}

  add(docId: number, values: readonly FieldValue[]): void {
    const { minTerms, maxTerms, lowercase } = this.options;
    for (const value of values) {
      if (typeof value !== 'string') continue;
      wordNgrams(surfaceWords(this.analyzer, value), minTerms, maxTerms, (text) => {
        const key = foldCase(text);
        const c = this.candidates.get(key);
        if (c === undefined) this.candidates.set(key, { display: lowercase ? key : text, docs: [docId] });
        // Docs arrive in increasing order: a candidate counts each doc once.
        else if (c.docs[c.docs.length - 1] !== docId) c.docs.push(docId);
        else return;
        this.postings++;
      });
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

  /**
   * An estimate of the heap held, for the buffer's flush decision: about 160 bytes per candidate
   * (its key and display strings, map entry and docs array) and 8 per doc entry.
   */
  get estimatedBytes(): number {
    let bytes = 0;
    for (const f of this.fields) bytes += f.candidates.size * 160 + f.postings * 8;
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
    for (const f of [...this.fields].sort((a, b) => (a.field < b.field ? -1 : 1))) {
      writer.startField(f.field);
      const keys = [...f.candidates.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      for (const key of keys) {
        const c = f.candidates.get(key)!;
        const docs = deleted.size === 0 ? c.docs : c.docs.filter((d) => !deleted.has(d));
        if (docs.length > 0) writer.add(key, c.display, docs);
      }
    }
    return writer.size === 0 ? null : writer.finish();
  }
}
