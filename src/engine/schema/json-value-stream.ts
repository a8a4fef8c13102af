/**
 * Splits a request body into JSON values as the bytes arrive: JSON Lines, values concatenated with
 * no separator at all (`curl -d @file` strips newlines: `{..}{..}`), values separated by any
 * whitespace, and top-level arrays whose elements are the documents. Only value boundaries are
 * found here (strings, escapes and bracket depth); each value is then handed to JSON.parse whole,
 * so memory holds one document plus the current chunk, never the body. It lives in the engine so
 * that `_index` bodies can be split where they are inverted (the inversion thread) as well as on
 * the thread that reads them.
 */
import { ErrorCode, YarrowError } from '../errors.js';
import { invalidUtf8Offset } from './utf8.js';

/** Where a document sits in its body, for error messages. */
export interface ValueLocation {
  /** 1-based position among the body's documents. */
  readonly ordinal: number;
  /** Byte offset (in the decoded body) where the document starts. */
  readonly offset: number;
  /** 1-based line, present only when the document is the first one on its line (real JSON Lines). */
  readonly line?: number;
}

/** One parsed document and where it came from. */
export interface ParsedValue {
  readonly value: unknown;
  readonly location: ValueLocation;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const NEWLINE = 0x0a;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

type ValueKind = 'container' | 'string' | 'scalar';

/**
 * A push parser: feed it chunks with {@link JsonValueSplitter.push}, then {@link JsonValueSplitter.end};
 * each returns the documents completed so far.
 * @throws YarrowError(invalid_document) naming ordinal, offset (and line when known) of the first
 *   value that is not valid JSON.
 */
export class JsonValueSplitter {
  private offset = 0;
  private line = 1;
  private ordinal = 0;
  /** Depth of open arrays that wrap documents (`[ {..}, {..} ]`). */
  private arrayDepth = 0;
  private kind: ValueKind | null = null;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private parts: Buffer[] = [];
  private start = 0;
  private startLine = 0;
  private lastValueLine = 0;
  private bomChecked = false;

  /** Bytes consumed so far. */
  get bytes(): number {
    return this.offset;
  }

  /** Consumes a chunk; returns the values it completed. */
  push(chunk: Buffer): ParsedValue[] {
    const out: ParsedValue[] = [];
    let i = 0;
    if (!this.bomChecked && chunk.length > 0) {
      this.bomChecked = true;
      if (chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3;
    }
    let valueFrom = this.kind === null ? -1 : 0;
    const n = chunk.length;
    while (i < n) {
      const b = chunk[i];
      if (this.kind === null) {
        if (b === NEWLINE) this.line++;
        if (isSpace(b)) { i++; continue; }
        if (b === COMMA && this.arrayDepth > 0) { i++; continue; }
        if (b === OPEN_BRACKET && this.arrayDepth === 0) { this.arrayDepth = 1; i++; continue; }
        if (b === CLOSE_BRACKET && this.arrayDepth > 0) { this.arrayDepth--; i++; continue; }
        this.begin(b, i);
        valueFrom = i;
        i++;
        continue;
      }
      if (this.kind === 'scalar') {
        if (isSpace(b) || b === COMMA || b === OPEN_BRACE || b === OPEN_BRACKET || b === CLOSE_BRACKET || b === QUOTE) {
          out.push(this.finish(chunk.subarray(valueFrom, i)));
          valueFrom = -1;
          continue; // the delimiter is looked at again between values
        }
        i++;
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) {
          this.inString = false;
          if (this.kind === 'string') {
            out.push(this.finish(chunk.subarray(valueFrom, i + 1)));
            valueFrom = -1;
          }
        }
        i++;
        continue;
      }
      if (b === NEWLINE) this.line++;
      else if (b === QUOTE) this.inString = true;
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) this.depth++;
      else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        this.depth--;
        if (this.depth === 0) {
          out.push(this.finish(chunk.subarray(valueFrom, i + 1)));
          valueFrom = -1;
        }
      }
      i++;
    }
    if (this.kind !== null && valueFrom >= 0) this.parts.push(chunk.subarray(valueFrom));
    this.offset += n;
    return out;
  }

  /** Ends the input: completes a trailing scalar, rejects a truncated value or array. */
  end(): ParsedValue[] {
    if (this.kind === 'scalar') return [this.finish(Buffer.alloc(0))];
    if (this.kind !== null) {
      this.ordinal++;
      throw this.error('the body ends inside this document (truncated JSON)', 'a complete JSON value', 'end of body');
    }
    if (this.arrayDepth > 0) {
      throw new YarrowError(ErrorCode.invalidDocument, `offset ${this.offset}: the body ends inside a JSON array (missing "]")`, {
        offset: this.offset,
        expected: ']',
        actual: 'end of body',
      });
    }
    return [];
  }

  private begin(b: number, at: number): void {
    this.start = this.offset + at;
    this.startLine = this.line;
    this.parts = [];
    if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      this.kind = 'container';
      this.depth = 1;
    } else if (b === QUOTE) {
      this.kind = 'string';
      this.inString = true;
    } else {
      this.kind = 'scalar';
    }
  }

  private finish(tail: Buffer): ParsedValue {
    this.parts.push(tail);
    const bytes = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    this.parts = [];
    this.kind = null;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.ordinal++;
    // Decoding with replacement characters would index something other than what was sent.
    const bad = invalidUtf8Offset(bytes);
    if (bad >= 0) {
      const at = this.start + bad;
      throw this.error(`invalid UTF-8: byte 0x${bytes[bad].toString(16).padStart(2, '0')} at byte offset ${at}`, 'UTF-8', 'invalid byte', at);
    }
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8'));
    } catch (e) {
      throw this.error(`invalid JSON: ${(e as Error).message}`, 'valid JSON', 'invalid JSON');
    }
    const location = this.location();
    this.lastValueLine = this.startLine;
    return { value, location };
  }

  private location(): ValueLocation {
    // A document that shares its line with the one before came from newline-less input: its line says nothing.
    const firstOnLine = this.startLine !== this.lastValueLine;
    return firstOnLine ? { ordinal: this.ordinal, offset: this.start, line: this.startLine } : { ordinal: this.ordinal, offset: this.start };
  }

  private error(reason: string, expected: string, actual: string, byteOffset?: number): YarrowError {
    const loc = this.location();
    const where = loc.line !== undefined ? `line ${loc.line}, document ${loc.ordinal}` : `document ${loc.ordinal}, offset ${loc.offset}`;
    return new YarrowError(ErrorCode.invalidDocument, `${where}: ${reason}`, { ...loc, ...(byteOffset === undefined ? {} : { byteOffset }), expected, actual });
  }
}
