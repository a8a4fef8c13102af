/**
 * One line of JSON Lines input: parsed, or refused with the source and line in the error (the
 * same message whichever reader, on whichever thread, met it).
 */
import { ErrorCode, YarrowError } from '../errors.js';
import { invalidUtf8Offset } from './utf8.js';

/**
 * Line `line` of `source`, `bytes[start, end)`, decoded as UTF-8. Ill-formed UTF-8 is refused, as
 * `_index` bodies and Kafka records are: replacement characters would index something other than
 * what the file holds.
 * @throws YarrowError(ErrorCode.invalidDocument) naming source, line and the first bad byte's
 *   offset in the line.
 */
export function decodeJsonLine(bytes: Buffer, start: number, end: number, source: string, line: number): string {
  const offset = invalidUtf8Offset(bytes.subarray(start, end));
  if (offset >= 0) {
    const byte = `0x${bytes[start + offset].toString(16).padStart(2, '0')}`;
    throw new YarrowError(ErrorCode.invalidDocument, `${source}, line ${line}: invalid UTF-8: byte ${byte} at byte offset ${offset} of the line`, {
      source,
      line,
      byte: offset,
      expected: 'UTF-8',
      actual: `invalid byte ${byte}`,
    });
  }
  return bytes.toString('utf8', start, end);
}

/**
 * Parses the JSON value on line `line` of `source`.
 * @throws YarrowError(ErrorCode.invalidDocument) naming source and line when it is not valid JSON.
 */
export function parseJsonLine(text: string, source: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const reason = (e as Error).message;
    throw new YarrowError(ErrorCode.invalidDocument, `${source}, line ${line}: invalid JSON: ${reason}`, {
      source,
      line,
      expected: 'JSON object',
      actual: `invalid JSON: ${reason}`,
    });
  }
}

/** Whether `text[start, end)` holds only JSON whitespace (space, tab, CR). Cheap for the common non-blank case. */
export function isBlankLine(text: string, start = 0, end = text.length): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}
