/**
 * A validated document made ready for the writer: its id assigned and its JSON serialised once,
 * for both the stored fields and the write-ahead log. Shared by the writer's thread
 * (`document-writer.ts`) and the inversion thread parsing `_index` bodies (`body-batch.ts`).
 */
import type { ValidDocument } from '../schema/document.js';
import { walUpsertJson } from './write-ahead-log.js';
import type { PreparedDocument } from './writer-options.js';

/** Assigns a missing id and serialises a validated document once, for the stored fields and the log. */
export function prepare(valid: ValidDocument): PreparedDocument {
  let doc = valid;
  let id = doc.id;
  if (id === undefined) {
    id = globalThis.crypto.randomUUID();
    doc = { ...doc, stored: { _id: id, ...doc.stored } };
  }
  const storedJson = JSON.stringify(doc.stored);
  // The log holds the validated form, so a replay never validates again.
  return { doc, id, storedJson, walJson: walUpsertJson(doc, id, storedJson) };
}
