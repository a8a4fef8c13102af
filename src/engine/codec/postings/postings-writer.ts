/**
 * Writes the postings (`.pst`) and positions (`.pos`) files of a segment.
 *
 * Byte layout of one term's postings in `.pst` (terms with docFreq >= 2; a term with a single doc is
 * inlined in the term dictionary and has no entry here):
 *
 * ```
 * numBlocks = ceil(docFreq / 128)
 * skip table, one entry per block (present only when numBlocks > 1):
 *   varint  lastDoc - previous block's lastDoc   (first block: lastDoc + 1)
 *   varint  byte length of the block
 *   varint  positions start of the block, relative to the term's positions start   (if positions)
 *   the block's impacts                                                            (if freqs)
 * blocks:
 *   byte    bit width of doc deltas, then the packed deltas (doc - previousDoc - 1)
 *   byte    bit width of (freq - 1), then the packed values                        (if freqs)
 * ```
 * Positions in `.pos`: for each doc of the term, `freq` varints, each the delta from the previous
 * position within the doc (the first one absolute).
 *
 * A block's impacts (version 2; Lucene's competitive impacts) are its competitive (frequency, norm)
 * pairs: those no other doc of the block beats on both, a higher frequency in a field as short or
 * shorter. Ascending by both, each as `varint freq - previous freq`, `varint norm - previous norm`
 * (the first from 0), after a `varint` count. Since BM25 grows with the frequency and shrinks with the
 * length, the best score of a block is one of its impacts' whatever the collection statistics; the
 * separate max frequency and min norm of version 1 (`varint` max freq, `byte` min norm, still read)
 * often pair a long doc's frequency with a short doc's length and bound far above any real score.
 * Block-max pruning uses these bounds to skip whole blocks.
 */
import { ByteWriter } from '../bytes/byte-writer.js';
import { MAX_NARROW_BITS, packBlock, packNarrowInto, packedBytes } from '../bitpacking/bitpacking.js';
import { writeFooter, writeHeader } from '../file-format.js';
import { IndexOptions, POSITIONS_MAGIC, POSTINGS_BLOCK, POSTINGS_MAGIC, POSTINGS_VERSION } from './postings-format.js';
import type { TermInfo } from './postings-format.js';
import { ImpactCollector } from './impacts.js';


/** Streams terms' postings into the `.pst` and `.pos` files of one segment. */
export class PostingsWriter {
  private readonly postings = new ByteWriter(1 << 16);
  private readonly positions = new ByteWriter(1 << 16);
  private readonly blockDocs = new Uint32Array(POSTINGS_BLOCK);
  private readonly blockFreqs = new Uint32Array(POSTINGS_BLOCK);
  private readonly blocks = new ByteWriter(1 << 12);
  private readonly skip = new ByteWriter(1 << 10);
  /** Null when writing version 1 (max freq and min norm per block instead of impacts). */
  private readonly impacts: ImpactCollector | null;
  /** What {@link writeTerm} returns, one object for every term. */
  private readonly info: { -readonly [K in keyof TermInfo]: TermInfo[K] } = { docFreq: 0, totalTermFreq: 0, postingsOffset: -1, singletonDoc: -1, positionsOffset: 0, maxFreq: 1, minNorm: 0 };

  /** @param version the format version to write: the current one, or 1 (for compatibility tests) */
  constructor(version: 1 | typeof POSTINGS_VERSION = POSTINGS_VERSION) {
    writeHeader(this.postings, POSTINGS_MAGIC, version);
    writeHeader(this.positions, POSITIONS_MAGIC, version);
    this.impacts = version === 1 ? null : new ImpactCollector();
  }

  /**
   * Writes one term. `docs` ascending; `freqs[i]` the frequency in `docs[i]` (ignored for
   * {@link IndexOptions.docs}); `positions` the concatenated positions of every doc, `freqs[i]` of
   * them per doc, ascending within a doc. `norms` maps doc ids to the field's norm byte.
   */
  addTerm(
    options: IndexOptions,
    count: number,
    docs: ArrayLike<number>,
    freqs: ArrayLike<number> | null,
    positions: ArrayLike<number> | null,
    norms: Uint8Array | null,
  ): TermInfo {
    return { ...this.writeTerm(options, count, docs, freqs, positions, norms) };
  }

  /**
   * {@link addTerm} without a term info made per term: the returned info is this writer's own,
   * overwritten by the next term (a flush writes hundreds of thousands of terms).
   */
  writeTerm(
    options: IndexOptions,
    count: number,
    docs: ArrayLike<number>,
    freqs: ArrayLike<number> | null,
    positions: ArrayLike<number> | null,
    norms: Uint8Array | null,
  ): TermInfo {
    const hasFreqs = options === IndexOptions.docsFreqsPositions && freqs !== null;
    const hasPositions = hasFreqs && positions !== null;
    const hasNorms = hasFreqs && norms !== null;
    if (hasPositions && hasNorms && count > 1 && count <= POSTINGS_BLOCK) return this.writeOneBlock(count, docs, freqs, positions, norms);
    const positionsOffset = this.positions.length;
    const numBlocks = Math.ceil(count / POSTINGS_BLOCK);
    // A term of one block has no skip table: its block goes straight into `.pst`.
    const postingsOffset = count === 1 ? -1 : this.postings.length;
    const blocks = numBlocks > 1 ? this.blocks : this.postings;
    const skip = this.skip;
    const blockDocs = this.blockDocs;
    const blockFreqs = this.blockFreqs;
    let totalTermFreq = 0;
    let maxFreq = 1;
    let minNorm = hasNorms ? 255 : 0;
    let prevDoc = -1;
    let prevBlockLast = -1;
    let posIndex = 0;
    // Only a term with a skip table has per-block impacts.
    const impacts = numBlocks > 1 && hasFreqs ? this.impacts : null;
    for (let b = 0; b < numBlocks; b++) {
      const start = b * POSTINGS_BLOCK;
      const n = Math.min(POSTINGS_BLOCK, count - start);
      const blockStart = blocks.length;
      const blockPositions = this.positions.length - positionsOffset;
      let blockMaxFreq = 1;
      let blockMinNorm = hasNorms ? 255 : 0;
      // The bit widths are those of the values' OR, gathered here instead of in a pass of their own.
      let docOr = 0;
      let freqOr = 0;
      if (!hasFreqs) {
        for (let i = 0; i < n; i++) {
          const doc = docs[start + i];
          const delta = doc - prevDoc - 1;
          blockDocs[i] = delta;
          docOr |= delta;
          prevDoc = doc;
        }
      } else {
        let blockTermFreq = 0;
        for (let i = 0; i < n; i++) {
          const doc = docs[start + i];
          const delta = doc - prevDoc - 1;
          blockDocs[i] = delta;
          docOr |= delta;
          prevDoc = doc;
          const f = freqs[start + i];
          blockFreqs[i] = f - 1;
          freqOr |= f - 1;
          blockTermFreq += f;
          if (f > blockMaxFreq) blockMaxFreq = f;
          if (hasNorms) {
            const nb = norms[doc];
            if (nb < blockMinNorm) blockMinNorm = nb;
            if (impacts !== null) impacts.add(f, nb);
          } else if (impacts !== null) {
            impacts.add(f, 0);
          }
        }
        totalTermFreq += blockTermFreq;
        // The block's docs' positions in one call: the same bytes as one call per doc.
        if (hasPositions) {
          this.positions.writeVarintDeltaRuns(positions, posIndex, freqs, start, n, blockTermFreq);
          posIndex += blockTermFreq;
        }
      }
      if (blockMaxFreq > maxFreq) maxFreq = blockMaxFreq;
      if (blockMinNorm < minNorm) minNorm = blockMinNorm;
      if (count === 1) break;
      const docBits = 32 - Math.clz32(docOr);
      blocks.writeByte(docBits);
      packBlock(blocks, blockDocs, n, docBits);
      if (hasFreqs) {
        const freqBits = 32 - Math.clz32(freqOr);
        blocks.writeByte(freqBits);
        packBlock(blocks, blockFreqs, n, freqBits);
      }
      if (numBlocks > 1) {
        skip.writeVarint(prevDoc - prevBlockLast);
        skip.writeVarint(blocks.length - blockStart);
        if (hasPositions) skip.writeVarint(blockPositions);
        if (impacts !== null) {
          impacts.writeTo(skip);
        } else if (hasFreqs) {
          skip.writeVarint(blockMaxFreq);
          skip.writeByte(blockMinNorm);
        }
      }
      prevBlockLast = prevDoc;
    }
    if (!hasFreqs) totalTermFreq = count;
    const info = this.info;
    info.totalTermFreq = totalTermFreq;
    info.positionsOffset = positionsOffset;
    info.maxFreq = maxFreq;
    info.minNorm = minNorm;
    if (count === 1) {
      info.docFreq = 1;
      info.postingsOffset = -1;
      info.singletonDoc = docs[0];
      return info;
    }
    if (numBlocks > 1) {
      this.postings.writeBytes(skip.view());
      this.postings.writeBytes(blocks.view());
      // Copied out above: the scratch buffers are reused for the next term.
      this.skip.reset();
      this.blocks.reset();
    }
    info.docFreq = count;
    info.postingsOffset = postingsOffset;
    info.singletonDoc = -1;
    return info;
  }

  /**
   * {@link writeTerm} of a scored field's term with positions in 2 to {@link POSTINGS_BLOCK} docs
   * (most terms that are not in one doc only): one block, no skip table, no impacts; its two packed
   * arrays written with one check for room. The same bytes as the general loop.
   */
  private writeOneBlock(count: number, docs: ArrayLike<number>, freqs: ArrayLike<number>, positions: ArrayLike<number>, norms: Uint8Array): TermInfo {
    const blockDocs = this.blockDocs;
    const blockFreqs = this.blockFreqs;
    let prevDoc = -1;
    let docOr = 0;
    let freqOr = 0;
    let totalTermFreq = 0;
    let maxFreq = 1;
    let minNorm = 255;
    for (let i = 0; i < count; i++) {
      const doc = docs[i];
      const delta = doc - prevDoc - 1;
      blockDocs[i] = delta;
      docOr |= delta;
      prevDoc = doc;
      const f = freqs[i];
      blockFreqs[i] = f - 1;
      freqOr |= f - 1;
      totalTermFreq += f;
      if (f > maxFreq) maxFreq = f;
      const nb = norms[doc];
      if (nb < minNorm) minNorm = nb;
    }
    const positionsOffset = this.positions.length;
    this.positions.writeVarintDeltaRuns(positions, 0, freqs, 0, count, totalTermFreq);
    const out = this.postings;
    const postingsOffset = out.length;
    const docBits = 32 - Math.clz32(docOr);
    const freqBits = 32 - Math.clz32(freqOr);
    if (docBits <= MAX_NARROW_BITS && freqBits <= MAX_NARROW_BITS) {
      const buf = out.reserve(2 + packedBytes(count, docBits) + packedBytes(count, freqBits));
      let p = postingsOffset;
      buf[p++] = docBits;
      p = packNarrowInto(buf, p, blockDocs, count, docBits);
      buf[p++] = freqBits;
      out.advance(packNarrowInto(buf, p, blockFreqs, count, freqBits));
    } else {
      out.writeByte(docBits);
      packBlock(out, blockDocs, count, docBits);
      out.writeByte(freqBits);
      packBlock(out, blockFreqs, count, freqBits);
    }
    const info = this.info;
    info.docFreq = count;
    info.totalTermFreq = totalTermFreq;
    info.postingsOffset = postingsOffset;
    info.singletonDoc = -1;
    info.positionsOffset = positionsOffset;
    info.maxFreq = maxFreq;
    info.minNorm = minNorm;
    return info;
  }

  /** Bytes of `.pos` written so far: where the next term's positions start. */
  get positionsLength(): number {
    return this.positions.length;
  }

  /** Appends one doc's positions `positions[from..from+count)` to `.pos`, as {@link addTerm} does. */
  writePositions(positions: ArrayLike<number>, from: number, count: number): void {
    this.positions.writeVarintDeltas(positions, from, count);
  }

  /** Finishes both files (footer with checksum) and returns their bytes. */
  finish(): { postings: Uint8Array; positions: Uint8Array } {
    writeFooter(this.postings);
    writeFooter(this.positions);
    return { postings: this.postings.toBytes(), positions: this.positions.toBytes() };
  }
}
