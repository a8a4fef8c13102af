/**
 * MiniSearch peer: an in-memory index over the same text fields. It has no top-k collector — every
 * match is scored and sorted before the first 10 are taken — and that cost is part of what is measured.
 * Its size is the length of its JSON serialization, the form in which it would be persisted.
 */
import MiniSearch from 'minisearch';
import type { CorpusDoc, CorpusSpec } from '../corpus.js';
import type { BenchQuery } from '../queries.js';
import type { BenchEngine, CreateEngine } from './bench-engine.js';

/** Creates the MiniSearch engine; `dir` is unused because the index lives in memory. */
export const createEngine: CreateEngine = (corpus: CorpusSpec, _dir: string) => {
  const ms = new MiniSearch<CorpusDoc>({
    idField: '_id',
    fields: [...corpus.textFields],
    storeFields: ['name'],
  });

  const engine: BenchEngine = {
    name: 'minisearch',
    index(docs: readonly CorpusDoc[]): Promise<void> {
      ms.addAll(docs);
      return Promise.resolve();
    },
    commit(): Promise<void> {
      return Promise.resolve();
    },
    indexBytes(): Promise<number> {
      return Promise.resolve(JSON.stringify(ms).length);
    },
    search(query: BenchQuery): Promise<number> {
      const combineWith = query.operator === 'and' ? 'AND' : 'OR';
      return Promise.resolve(ms.search(query.terms.join(' '), { combineWith }).slice(0, 10).length);
    },
    close(): Promise<void> {
      return Promise.resolve();
    },
  };
  return Promise.resolve(engine);
};
