/**
 * Where a model's files come from, parsed from the config's `model` string the way Nixiesearch
 * reads it: a Hugging Face hub handle (`org/name`), an `http(s)://` URL of a directory of files,
 * or a local directory (an absolute path, `./relative`, `~/...` or `file://`).
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A parsed `model` value. */
export type ModelLocation =
  | { readonly kind: 'hub'; readonly org: string; readonly name: string }
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'local'; readonly dir: string };

const hubHandle = /^([A-Za-z0-9][A-Za-z0-9_.-]*)\/([A-Za-z0-9][A-Za-z0-9_.-]*)$/;

/** Parses `model`; null when it is none of the three forms. */
export function parseModelLocation(model: string): ModelLocation | null {
  if (/^https?:\/\//i.test(model)) return { kind: 'url', url: model.replace(/\/+$/, '') };
  if (model.startsWith('file://')) return { kind: 'local', dir: fileURLToPath(model) };
  if (model.startsWith('/') || model.startsWith('./') || model.startsWith('../') || model === '.') return { kind: 'local', dir: resolve(model) };
  if (model.startsWith('~/')) return { kind: 'local', dir: resolve(homedir(), model.slice(2)) };
  const hub = hubHandle.exec(model);
  if (hub !== null && !model.includes('..')) return { kind: 'hub', org: hub[1], name: hub[2] };
  return null;
}

/** What a `model` value must look like, for error messages. */
export const MODEL_LOCATION_FORMS = 'a hub handle (org/name), an http(s):// URL, or a local directory (/absolute, ./relative or file://)';
