/**
 * The embedded default: indexes the bundled sample movies into ./yarrow-data/movies (a local
 * directory), commits, and runs a few searches through the library API. Run with `npm run demo`.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Index, LocalDirectory } from '../src/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const mapping = {
  fields: {
    title: { type: 'text', search: { lexical: { analyze: 'english' } }, sort: true },
    overview: { type: 'text', search: { lexical: { analyze: 'english' } } },
    genres: { type: 'text[]', search: false, filter: true, facet: true },
    year: { type: 'int', filter: true, sort: true, facet: true },
    rating: { type: 'double', filter: true, sort: true },
  },
};

const docs: unknown[] = [];
for await (const line of createInterface({ input: createReadStream(join(root, 'samples/movies.jsonl')) })) {
  if (line.trim() !== '') docs.push(JSON.parse(line));
}

const dataDir = process.env.YARROW_DATA ?? join(root, 'yarrow-data', 'movies');
const logger = { debug() {}, info: (m: string) => { console.log(`[yarrow] ${m}`); }, warn: (m: string) => { console.warn(`[yarrow] ${m}`); }, error: (m: string) => { console.error(`[yarrow] ${m}`); } };
const index = await Index.open(await LocalDirectory.open(dataDir), { name: 'movies', mapping, logger });
await index.upsert(docs, { source: 'samples/movies.jsonl', firstLine: 1 });
await index.commit();
console.log(`indexed ${index.stats().docs} movies into ${dataDir}`);

for (const query of [
  { multi_match: { query: 'running man', fields: ['title^2', 'overview'] } },
  { match: { overview: { query: 'science robot earth', operator: 'or' } } },
  { multi_match: { query: 'crime family', fields: ['title', 'overview'], operator: 'and', type: 'most_fields' } },
]) {
  const res = index.search({ query, size: 3 });
  console.log(`\n${JSON.stringify(query)} -> ${res.total} hits in ${res.took} ms`);
  for (const hit of res.hits) console.log(`  ${hit._score.toFixed(3)}  ${String(hit.title)} (${String(hit.year)})`);
}
await index.close();
