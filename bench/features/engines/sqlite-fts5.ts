/**
 * SQLite FTS5 peer for the feature scenarios: a contentful FTS5 table over the text fields (porter
 * stemmer, as in the main benchmark) plus a regular table sharing its rowid that holds the id and the
 * structured fields. Filters, sorting and facets are plain SQL over the MATCH joined to that table;
 * phrases use FTS5's `column : "a b"` syntax. The regular table has no secondary indexes: every
 * query is driven by the MATCH, which is how an application would use it.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import type { CorpusDoc } from '../../corpus.js';
import { textOf } from '../../corpus.js';
import type { CreateFeatureEngine, FacetBucket, FeatureAnswer, FeatureEngine } from '../feature-engine.js';
import type { FeatureQuery } from '../scenarios.js';
import { FACETS, FACET_SIZE, PHRASE_FIELD, TEXT_FIELDS, TOP_K } from '../scenarios.js';

/** A term as an FTS5 string literal, so words like `and`/`or`/`near` are never read as operators. */
function quote(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

function orMatch(terms: readonly string[]): string {
  return terms.map(quote).join(' OR ');
}

function intOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

const JOIN = 'FROM t JOIN meta m ON m.rowid = t.rowid WHERE t MATCH ?';

/** Creates the FTS5 engine in `dir`. */
export const createEngine: CreateFeatureEngine = (dir: string) => {
  const db = new Database(path.join(dir, 'bench.db'));
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(${TEXT_FIELDS.join(', ')}, tokenize='porter unicode61')`);
  db.exec('CREATE TABLE meta (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL, section TEXT, priority TEXT, installed_size INTEGER, size INTEGER)');
  const insertText = db.prepare(`INSERT INTO t(rowid, ${TEXT_FIELDS.join(', ')}) VALUES (?, ${TEXT_FIELDS.map(() => '?').join(', ')})`);
  const insertMeta = db.prepare('INSERT INTO meta(rowid, id, section, priority, installed_size, size) VALUES (?, ?, ?, ?, ?, ?)');

  const byScore = db.prepare<[string], { id: string }>(`SELECT m.id AS id ${JOIN} ORDER BY bm25(t) LIMIT ${TOP_K}`);
  const filtered = db.prepare<[string, string, number, number], { id: string }>(
    `SELECT m.id AS id ${JOIN} AND m.section = ? AND m.installed_size >= ? AND m.installed_size < ? ORDER BY bm25(t) LIMIT ${TOP_K}`,
  );
  const sorted = db.prepare<[string], { id: string }>(
    `SELECT m.id AS id ${JOIN} ORDER BY m.installed_size DESC LIMIT ${TOP_K}`,
  );
  // One GROUP BY per facet, each over the whole MATCH: what SQL offers for counting every match.
  const facetStatements = FACETS.map((f) => ({
    name: f.name,
    statement: db.prepare<[string], FacetBucket>(
      `SELECT m.${f.field} AS term, count(*) AS count ${JOIN} AND m.${f.field} IS NOT NULL ` +
      `GROUP BY m.${f.field} ORDER BY count DESC, term LIMIT ${FACET_SIZE}`,
    ),
  }));

  const ids = (rows: readonly { id: string }[]): string[] => rows.map((r) => r.id);

  const engine: FeatureEngine = {
    name: 'sqlite-fts5',
    supports: () => true,
    index(docs: readonly CorpusDoc[]): Promise<void> {
      // The transaction stays open until commit(), so the one fsync is paid in the commit phase.
      db.exec('BEGIN');
      for (let row = 0; row < docs.length; row++) {
        const doc = docs[row];
        insertText.run(row + 1, ...TEXT_FIELDS.map((f) => textOf(doc, f)));
        insertMeta.run(row + 1, textOf(doc, '_id'), stringOrNull(doc.section), stringOrNull(doc.priority),
          intOrNull(doc.installed_size), intOrNull(doc.size));
      }
      return Promise.resolve();
    },
    commit(): Promise<void> {
      db.exec('COMMIT');
      return Promise.resolve();
    },
    run(q: FeatureQuery): FeatureAnswer {
      switch (q.scenario) {
        case 'filtered':
          return { ids: ids(filtered.all(orMatch(q.terms), q.section, q.sizeGte, q.sizeLt)) };
        case 'sorted':
          return { ids: ids(sorted.all(orMatch(q.terms))) };
        case 'faceted': {
          const match = orMatch(q.terms);
          const facets = Object.fromEntries(facetStatements.map((f) => [f.name, f.statement.all(match)]));
          return { ids: ids(byScore.all(match)), facets };
        }
        case 'phrase':
          return { ids: ids(byScore.all(`${PHRASE_FIELD} : "${q.phrase.join(' ')}"`)) };
      }
    },
    close(): Promise<void> {
      db.close();
      return Promise.resolve();
    },
  };
  return Promise.resolve(engine);
};
