/**
 * The one FTS5 schema of the bench, shared by the `sqlite-fts5` engine (documents parsed in the
 * runner) and the `sqlite-fts5-file` loader (documents read from the JSON Lines file), so both load
 * the same table: the document's `_id` as an UNINDEXED column (stored, as Yarrow stores `_id`, so a
 * hit can name its document; not tokenized, so it matches nothing and bm25 ignores it), then one
 * column per searched field, tokenized by `porter unicode61` (the english analyzer's class: Unicode
 * word splitting, lowercasing, Porter stemming).
 */
import type { CorpusDoc } from '../../corpus.js';
import { textOf } from '../../corpus.js';

/** The table's name, as queries use it (`... WHERE t MATCH ?`, `bm25(t)`). */
export const TABLE = 't';

/** The column that keeps each document's `_id`. */
const ID_COLUMN = '_id';

/** FTS5 column names must be identifiers; the corpus field names already are, but check anyway. */
function column(field: string): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(field) || field === ID_COLUMN) throw new Error(`unsupported field name for FTS5: ${field}`);
  return field;
}

/** `CREATE VIRTUAL TABLE` for the searched `fields`. */
export function createTableSql(fields: readonly string[]): string {
  return `CREATE VIRTUAL TABLE ${TABLE} USING fts5(${ID_COLUMN} UNINDEXED, ${fields.map(column).join(', ')}, tokenize='porter unicode61')`;
}

/** The `INSERT` whose parameters are {@link rowValues}: rowid, `_id`, then each field. */
export function insertSql(fields: readonly string[]): string {
  const columns = [ID_COLUMN, ...fields.map(column)];
  return `INSERT INTO ${TABLE}(rowid, ${columns.join(', ')}) VALUES (?, ${columns.map(() => '?').join(', ')})`;
}

/** Fills `out` with the parameters of {@link insertSql} for the document of `rowid`. */
export function rowValues(rowid: number, doc: CorpusDoc, fields: readonly string[], out: (string | number)[]): void {
  out[0] = rowid;
  out[1] = textOf(doc, ID_COLUMN);
  for (let c = 0; c < fields.length; c++) out[c + 2] = textOf(doc, fields[c]);
}
