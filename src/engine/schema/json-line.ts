/**
 * One line of JSON Lines input: parsed, or refused with the source and line in the error (the
 * same message whichever reader, on whichever thread, met it).
 */
import { ErrorCode, YarrowError } from '../errors.js';

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
