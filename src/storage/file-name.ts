/**
 * Checks of the names a `Directory` accepts, shared by every implementation so that they
 * refuse the same names (a name valid on one backend must be valid on all).
 */
const VALID_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * Throws a RangeError unless `name` is a flat file name made of `[A-Za-z0-9._-]`. `.` and `..`
 * match that set but would escape or alias the directory, so they are refused too.
 */
export function assertFileName(name: string): void {
  if (!VALID_NAME.test(name) || name === '.' || name === '..') {
    throw new RangeError(`invalid file name ${JSON.stringify(name)}: expected a flat name of [A-Za-z0-9._-]`);
  }
}
