/**
 * The id of a document without `_id`, derived from where it is rather than drawn at random, so that
 * indexing the same input again replaces rather than duplicates it.
 */
import { createHash } from 'node:crypto';

/**
 * The id of the document on line `line` of the input `prefix` names (the caller makes `prefix`
 * unique per input, e.g. source URL and file name): 22 base64url characters of a SHA-256.
 */
export function lineDocumentId(prefix: string, line: number): string {
  return createHash('sha256').update(`${prefix}${String(line)}`).digest('base64url').slice(0, 22);
}
