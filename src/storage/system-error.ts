/** Reading Node's system errors (`ENOENT`, `EEXIST`, ...) without trusting their shape. */

/** The `code` of a Node system error, if any. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}
