/**
 * Parses the `-u` argument of `index file` into the kind of source it names (SPEC §1.1): a plain
 * path, `file:///...`, `http(s)://...` or `s3://bucket/prefix`.
 */
import { fileURLToPath } from 'node:url';

/** What a `-u` value points at. */
export type SourceUrl =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'http'; readonly url: string }
  | { readonly kind: 's3'; readonly bucket: string; readonly prefix: string };

/** The URL is not one `index file` can read; the message says why. */
export class SourceUrlError extends Error {
  override readonly name = 'SourceUrlError';
}

/**
 * Classifies `value`. Anything without a `scheme://` is a local path; Windows drive letters are
 * not schemes.
 * @throws SourceUrlError for unknown schemes and malformed URLs.
 */
export function parseSourceUrl(value: string): SourceUrl {
  if (value === '') throw new SourceUrlError('the source URL is empty');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(value)?.[1].toLowerCase();
  if (scheme === undefined) return { kind: 'file', path: value };
  switch (scheme) {
    case 'file':
      try {
        return { kind: 'file', path: fileURLToPath(value) };
      } catch (e) {
        throw new SourceUrlError(`${value} is not a valid file URL: ${(e as Error).message}`);
      }
    case 'http':
    case 'https':
      try {
        return { kind: 'http', url: new URL(value).href };
      } catch {
        throw new SourceUrlError(`${value} is not a valid URL`);
      }
    case 's3': {
      const rest = value.slice('s3://'.length);
      const slash = rest.indexOf('/');
      const bucket = slash < 0 ? rest : rest.slice(0, slash);
      const prefix = slash < 0 ? '' : rest.slice(slash + 1);
      if (!/^[a-z0-9][a-z0-9.-]{1,62}$/.test(bucket)) throw new SourceUrlError(`${value}: "${bucket}" is not a valid S3 bucket name`);
      return { kind: 's3', bucket, prefix };
    }
    default:
      throw new SourceUrlError(`${value}: unsupported scheme "${scheme}://" (use a path, file://, http://, https:// or s3://)`);
  }
}
