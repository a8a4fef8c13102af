/**
 * Yarrow under test, through its public library API: a local directory, a mapping per corpus, upserts
 * in batches, one commit, and `multi_match` queries over all text fields (yarrow-request.ts) — the
 * same work FTS5 does when it matches against every column.
 *
 * Two mappings per corpus. {@link TEXT_MAPPINGS} (the `yarrow` and `yarrow-cli` engines) maps what the
 * peers index: `_id` and the searched text fields, so indexing compares like with like (issue 17:
 * "same fields and analyzer class"). {@link MAPPINGS} adds the fields a real user would filter, sort
 * or facet on; the opt-in `yarrow-cli-full` engine, the features bench and the HTTP bench use it.
 */
import { Index, LocalDirectory } from '../../src/index.js';
import type { CorpusDoc, CorpusName, CorpusSpec } from '../corpus.js';
import { CORPORA } from '../corpus.js';
import type { BenchQuery } from '../queries.js';
import type { BenchEngine, CreateEngine } from './bench-engine.js';
import { directoryBytes } from './bench-engine.js';
import { benchSearchRequest } from './yarrow-request.js';

/** Documents per `upsert` call: big enough to amortize per-call costs, small enough to stream. */
const BATCH_SIZE = 10_000;

const englishText = { type: 'text', search: { lexical: { analyze: 'english' } } } as const;
const keywordFacet = { type: 'text', search: false, filter: true, facet: true } as const;

/**
 * Each corpus's full mapping: its text fields as english text plus the fields a real user would
 * filter, sort or facet on (`downloads_a_month`; `section`, `priority`, `installed_size`, `size`,
 * `tags`), which the peers do not index. The query set searches the text fields only.
 */
export const MAPPINGS = {
  npm: {
    fields: {
      name: englishText,
      summary: englishText,
      downloads_a_month: { type: 'long', sort: true, filter: true },
    },
  },
  debian: {
    fields: {
      name: englishText,
      summary: englishText,
      description: englishText,
      section: keywordFacet,
      priority: keywordFacet,
      installed_size: { type: 'int', filter: true, sort: true },
      size: { type: 'int', filter: true, sort: true },
      tags: { type: 'text[]', search: false, filter: true, facet: true },
    },
  },
} as const satisfies Record<CorpusName, unknown>;

/** A mapping of the bench: `fields` by name (`_id` is implicit, as for every Yarrow index). */
export interface BenchMapping {
  readonly fields: Readonly<Record<string, object>>;
}

/**
 * Each corpus's like-for-like mapping: exactly the fields SQLite FTS5 and Xapian index, the searched
 * text fields (english-analyzed, stored, as FTS5 keeps its columns) and, implicitly, `_id`.
 */
export const TEXT_MAPPINGS: Readonly<Record<CorpusName, BenchMapping>> = {
  npm: textMapping(CORPORA.npm),
  debian: textMapping(CORPORA.debian),
};

function textMapping(corpus: CorpusSpec): BenchMapping {
  return { fields: Object.fromEntries(corpus.textFields.map((f) => [f, englishText])) };
}

/** Creates the Yarrow engine with its index in `dir`. */
export const createEngine: CreateEngine = async (corpus: CorpusSpec, dir: string) => {
  const directory = await LocalDirectory.open(dir);
  // Refresh on demand only: a bulk load is made searchable by its commit, as FTS5's is, and no
  // background timer runs while queries are timed.
  const index = await Index.open(directory, {
    name: corpus.name,
    mapping: TEXT_MAPPINGS[corpus.name],
    refreshIntervalMs: 0,
  });
  const fields = [...corpus.textFields];

  const engine: BenchEngine = {
    name: 'yarrow',
    async index(docs: readonly CorpusDoc[]): Promise<void> {
      for (let start = 0; start < docs.length; start += BATCH_SIZE) {
        await index.upsert(docs.slice(start, start + BATCH_SIZE));
      }
    },
    async commit(): Promise<void> {
      await index.commit();
    },
    indexBytes(): Promise<number> {
      return directoryBytes(dir);
    },
    async search(query: BenchQuery): Promise<number> {
      // Promise.resolve: works whether Index.search ends up synchronous or async.
      const res = await Promise.resolve(index.search(benchSearchRequest(query, fields)));
      return res.hits.length;
    },
    async close(): Promise<void> {
      await index.close();
    },
  };
  return engine;
};
