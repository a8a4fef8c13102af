/**
 * The in-memory inverted index of one full-text field while documents are buffered: each term
 * maps to its docs, frequencies and positions, appended as documents arrive (docs arrive in
 * increasing doc id order, so postings are built already sorted by doc).
 */
import type { Analyzer, TokenSink } from '../analysis/analyzer.js';
import { lengthToNorm } from '../codec/norms/small-float.js';
import { IndexOptions } from '../codec/postings/postings-format.js';
import type { TimeSlicer } from '../event-loop.js';
import type { SegmentWriter } from './segment-writer.js';

/** Position increment between the values of a multi-valued field, so phrases never span values. */
export const POSITION_GAP = 100;

/** Inverts one field of the buffered documents. */
export class FieldInverter {
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  /**
   * One stream per term: a new doc is written as its marker `-(doc + 1)`, followed by the positions
   * of the term in that doc. One array and about one push per token keeps the buffer cheap.
   */
  private readonly streams: number[][] = [];
  /** Last doc each term was seen in. */
  private lastDocs = new Int32Array(1024);
  /** Field length (token count) per doc id; 0 when the doc has no token in this field. */
  private readonly lengths: number[] = [];
  private docCount = 0;
  private sumTotalTermFreq = 0;
  private tokens = 0;
  private currentDoc = 0;
  private currentLength = 0;
  private readonly sink: TokenSink;
  /** Raw token -> term id (-1: dropped), when the analyzer's filters can be cached per token. */
  private readonly rawIds = new Map<string, number>();
  private readonly tokenize: Analyzer['analyze'];

  constructor(
    readonly field: string,
    analyzer: Analyzer,
  ) {
    const addTerm = (id: number, position: number): void => {
      this.currentLength++;
      const stream = this.streams[id];
      if (this.lastDocs[id] !== this.currentDoc) {
        this.lastDocs[id] = this.currentDoc;
        stream.push(-(this.currentDoc + 1), position);
      } else stream.push(position);
    };
    const termId = (term: string): number => {
      let id = this.termIds.get(term);
      if (id === undefined) {
        id = this.terms.length;
        this.termIds.set(term, id);
        this.terms.push(term);
        this.streams.push([]);
        if (id >= this.lastDocs.length) {
          const grown = new Int32Array(this.lastDocs.length * 2);
          grown.set(this.lastDocs);
          this.lastDocs = grown;
        }
        this.lastDocs[id] = -1;
      }
      return id;
    };
    const decomposed = analyzer.decomposed;
    if (decomposed === undefined) {
      this.tokenize = (text, sink, start) => analyzer.analyze(text, sink, start);
      this.sink = (term, position) => {
        addTerm(termId(term), position);
      };
    } else {
      this.tokenize = (text, sink, start) => decomposed.tokenize(text, sink, start);
      this.sink = (token, position) => {
        let id = this.rawIds.get(token);
        if (id === undefined) {
          const term = decomposed.normalize(token);
          id = term === null ? -1 : termId(term);
          this.rawIds.set(token, id);
        }
        if (id >= 0) addTerm(id, position);
      };
    }
  }

  /** Number of distinct terms buffered. */
  get termCount(): number {
    return this.terms.length;
  }

  /** Tokens buffered, a proxy for memory use. */
  get tokenCount(): number {
    return this.tokens;
  }

  /** Analyzes the values of `docId` (docs must arrive in increasing order) into the postings. */
  invert(docId: number, values: readonly (string | number | boolean)[]): void {
    this.currentDoc = docId;
    this.currentLength = 0;
    let position = 0;
    for (const value of values) {
      position = this.tokenize(String(value), this.sink, position) + POSITION_GAP;
    }
    while (this.lengths.length < docId) this.lengths.push(0);
    this.lengths.push(this.currentLength);
    if (this.currentLength > 0) {
      this.docCount++;
      this.sumTotalTermFreq += this.currentLength;
      this.tokens += this.currentLength;
    }
  }

  /** Writes the field's terms, in sorted order, into a segment of `maxDoc` docs. */
  async writeTo(writer: SegmentWriter, maxDoc: number, slicer: TimeSlicer): Promise<void> {
    const norms = new Uint8Array(maxDoc);
    for (let d = 0; d < this.lengths.length; d++) norms[d] = lengthToNorm(this.lengths[d]);
    writer.startField(this.field, IndexOptions.docsFreqsPositions, norms, {
      docCount: this.docCount,
      sumTotalTermFreq: this.sumTotalTermFreq,
    });
    // Default sort compares UTF-16 code units: the term dictionary's order.
    const sorted = [...this.terms].sort();
    const docs: number[] = [];
    const freqs: number[] = [];
    const positions: number[] = [];
    for (const term of sorted) {
      if (slicer.due()) await slicer.yield();
      const stream = this.streams[this.termIds.get(term)!];
      docs.length = 0;
      freqs.length = 0;
      positions.length = 0;
      for (const v of stream) {
        if (v < 0) {
          docs.push(-v - 1);
          freqs.push(0);
        } else {
          freqs[freqs.length - 1]++;
          positions.push(v);
        }
      }
      writer.addTerm(term, docs.length, docs, freqs, positions);
    }
  }
}
