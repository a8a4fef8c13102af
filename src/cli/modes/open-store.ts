/**
 * Opens the Directory an index lives in, from the config's `store` section (or the index's own
 * override): `local` -> `<path>/<index>`, `memory` -> a fresh in-process directory.
 */
import { resolve } from 'node:path';
import type { StoreConfig } from '../../config/index.js';
import type { Directory } from '../../engine/index.js';
import { LocalDirectory, MemoryDirectory } from '../../storage/index.js';
import { NotAvailableError } from '../usage-error.js';

/** The directory of index `name` in `store`; relative local paths are relative to the working directory. */
export async function openStore(store: StoreConfig, name: string): Promise<{ dir: Directory; location: string }> {
  if (store.local !== undefined) {
    const path = resolve(store.local.path, name);
    return { dir: await LocalDirectory.open(path), location: path };
  }
  if (store.memory !== undefined) return { dir: new MemoryDirectory(`memory:${name}`), location: `memory:${name}` };
  throw new NotAvailableError('store s3 is not available yet in this build; use store: { local: { path: ... } }');
}
