/**
 * A short, fast, non-cryptographic tag of a text, for file names under the compile-cache
 * directory: the config cache's entries (config-cache.ts) and the CLI's code caches
 * (src/cli/vendored.ts). A leaf module, so that neither loads node:crypto for it (issue 17).
 */

/**
 * 32-bit FNV-1a of `text`'s UTF-16 code units, as 8 hex digits. Only a name: whoever reads a file
 * so named compares what it holds (or V8 checks it), since different texts may share a tag.
 */
export function fnv1aHex(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}
