/**
 * Which docs of a segment a search may return: live docs intersected with the request's filters.
 * Collectors only ask {@link AcceptDocs.isLive}, so live docs alone and filtered sets look alike.
 */
export interface AcceptDocs {
  isLive(doc: number): boolean;
}

/** A per-segment set of docs as one byte per doc (filters are evaluated into these). */
export class DocBits implements AcceptDocs {
  readonly bits: Uint8Array;

  constructor(readonly maxDoc: number) {
    this.bits = new Uint8Array(maxDoc);
  }

  isLive(doc: number): boolean {
    return this.bits[doc] === 1;
  }

  /** Keeps only docs that are also in `other`. */
  and(other: AcceptDocs): this {
    const bits = this.bits;
    for (let d = 0; d < bits.length; d++) if (bits[d] === 1 && !other.isLive(d)) bits[d] = 0;
    return this;
  }

  /** Adds the docs of `other`. */
  or(other: DocBits): this {
    const bits = this.bits;
    const o = other.bits;
    for (let d = 0; d < bits.length; d++) bits[d] |= o[d];
    return this;
  }

  /** Complements the set. */
  not(): this {
    const bits = this.bits;
    for (let d = 0; d < bits.length; d++) bits[d] ^= 1;
    return this;
  }

  /** A set holding every doc. */
  static all(maxDoc: number): DocBits {
    const set = new DocBits(maxDoc);
    set.bits.fill(1);
    return set;
  }
}
