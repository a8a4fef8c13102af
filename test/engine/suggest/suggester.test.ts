import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { Index } from '../../../src/engine/search-index.js';
import { LocalDirectory } from '../../../src/storage/local-directory.js';
import { temporaryDirectories } from '../../helpers/temp-dirs.js';

const mapping = {
  fields: {
    title: { type: 'text', suggest: true },
    tags: { type: 'text[]', suggest: { lowercase: true, expand: { 'min-terms': 1, 'max-terms': 2 } } },
    body: { type: 'text' },
  },
};

const books = [
  { _id: '1', title: 'Harry Potter and the Philosopher Stone', tags: ['Fantasy', 'Wizards'], body: 'harmony' },
  { _id: '2', title: 'Harry Potter and the Chamber of Secrets', tags: ['Fantasy'], body: 'x' },
  { _id: '3', title: 'Harvest Moon', tags: ['Farming Games'], body: 'x' },
  { _id: '4', title: 'Hardware Hacking', tags: ['Computers'], body: 'x' },
  { _id: '5', title: 'The Hobbit', tags: ['Fantasy', 'Hard Cover'], body: 'x' },
];

const tempDir = temporaryDirectories('yarrow-suggest-');

async function open(path?: string, extra: Record<string, unknown> = {}): Promise<{ index: Index; path: string }> {
  const where = path ?? (await tempDir());
  const index = await Index.open(await LocalDirectory.open(where), { mapping, refreshIntervalMs: 0, ...extra });
  return { index, path: where };
}

async function texts(index: Index, request: Record<string, unknown>): Promise<string[]> {
  return (await index.suggest(request)).suggestions.map((s) => s.text);
}

describe('Index.suggest', () => {
  it('completes the last partial word, ranked by the number of documents holding a candidate', async () => {
    const { index } = await open();
    await index.upsert(books);
    await index.refresh();
    const got = await texts(index, { query: 'har', fields: ['title'], count: 5 });
    // "Harry" and "Harry Potter" are in two documents, so they come before one-document candidates.
    assert.deepEqual(got.slice(0, 3), ['Harry', 'Harry Potter', 'Harry Potter and']);
    assert.ok(got.slice(3).every((t) => /^(Harvest|Hardware)/.test(t)), got.join(' | '));
    assert.deepEqual(await texts(index, { query: 'harry potter and the ch', fields: ['title'] }), []);
    // Candidates are at most three words (max-terms), so a four-word prefix completes nothing.
    assert.deepEqual(await texts(index, { query: 'potter and the c', fields: ['title'] }), []);
    assert.deepEqual(await texts(index, { query: 'potter and t', fields: ['title'] }), ['Potter and the']);
    assert.deepEqual(await texts(index, { query: 'Potter AND', fields: ['title'], count: 1 }), ['Potter and']);
    const scored = await index.suggest({ query: 'harr', fields: ['title'] });
    assert.equal(scored.suggestions[0].score, 1 / 61);
    assert.ok(scored.took >= 0);
    await index.close();
  });

  it('keeps the written case unless the field lowercases, and n-grams stay within max-terms', async () => {
    const { index } = await open();
    await index.upsert(books);
    await index.refresh();
    assert.deepEqual(await texts(index, { query: 'farm', fields: ['tags'] }), ['farming', 'farming games']);
    assert.deepEqual(await texts(index, { query: 'hobb', fields: ['title'] }), ['Hobbit']);
    // Values of a text[] field are separate texts: no n-gram spans two tags.
    assert.deepEqual(await texts(index, { query: 'fantasy w', fields: ['tags'] }), []);
    await index.close();
  });

  it('fuses fields with reciprocal rank and lists a text once', async () => {
    const { index } = await open();
    await index.upsert(books);
    await index.refresh();
    const res = await index.suggest({ query: 'ha', fields: ['title', 'tags'], count: 20 });
    const lower = res.suggestions.map((s) => s.text.toLowerCase());
    assert.equal(new Set(lower).size, lower.length, 'no duplicates');
    assert.ok(lower.includes('hard cover'), 'from tags');
    assert.ok(lower.includes('hardware hacking'), 'from title');
    const scores = res.suggestions.map((s) => s.score);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
    // "fantasy" ranks first in tags (3 docs); nothing in title starts with "fan".
    const fan = await index.suggest({ query: 'fan', fields: ['title', 'tags'] });
    assert.deepEqual(fan.suggestions[0], { text: 'fantasy', score: 1 / 61 });
    // Without `fields`, every suggest field answers.
    assert.deepEqual(await texts(index, { query: 'fant' }), ['fantasy']);
    await index.close();
  });

  it('tolerates one typo in the last word when exact prefixes give too few', async () => {
    const { index } = await open();
    await index.upsert(books);
    await index.refresh();
    assert.deepEqual((await texts(index, { query: 'hary', fields: ['title'], count: 2 })), ['Harry', 'Harry Potter']);
    assert.ok((await texts(index, { query: 'harry pottre', fields: ['title'] })).includes('Harry Potter'));
    assert.ok((await texts(index, { query: 'hbobit', fields: ['title'] })).includes('Hobbit'), 'transposition');
    assert.ok((await texts(index, { query: 'hobit', fields: ['title'] })).includes('Hobbit'), 'insertion');
    assert.ok((await texts(index, { query: 'hobbbit', fields: ['title'] })).includes('Hobbit'), 'deletion');
    // The first letter is never corrected, and short words are not corrected.
    assert.deepEqual(await texts(index, { query: 'jobbit', fields: ['title'] }), []);
    assert.deepEqual(await texts(index, { query: 'hx', fields: ['title'] }), []);
    // Exact completions come before corrections.
    const mixed = await texts(index, { query: 'hard', fields: ['title'], count: 10 });
    assert.equal(mixed[0], 'Hardware');
    assert.ok(mixed.includes('Harry'), 'hard -> harr... is one substitution away');
    assert.ok(mixed.indexOf('Hardware Hacking') < mixed.indexOf('Harry'));
    await index.close();
  });

  it('survives flush, reopen, delete and merge, counting live documents only', async () => {
    const { index, path } = await open(undefined, { writer: { mergePolicy: { segmentsPerTier: 2, maxMergeAtOnce: 2, deletesPctAllowed: 0 } } });
    for (const b of books) {
      await index.upsert([b]);
      await index.commit();
    }
    assert.deepEqual(await texts(index, { query: 'harvest', fields: ['title'] }), ['Harvest', 'Harvest Moon']);
    await index.close();

    const reopened = (await open(path)).index;
    assert.deepEqual(await texts(reopened, { query: 'harvest', fields: ['title'] }), ['Harvest', 'Harvest Moon']);
    await reopened.delete(['3', '2']);
    await reopened.refresh();
    const harv = await texts(reopened, { query: 'harv', fields: ['title'] });
    assert.ok(!harv.some((t) => t.startsWith('Harvest')), `a deleted document suggests nothing: ${harv.join(' | ')}`);
    // "Harry" is now held by one live document: it ties with the other one-document candidates.
    const harry = await reopened.suggest({ query: 'harry', fields: ['title'] });
    assert.ok(harry.suggestions.every((s) => !s.text.includes('Chamber')));
    await reopened.upsert([{ _id: '1', title: 'Harry Potter and the Goblet of Fire' }]);
    await reopened.commit();
    await reopened.close();

    const merged = (await open(path)).index;
    const files = (await readdir(path)).filter((n) => n.endsWith('.sgt'));
    assert.ok(merged.stats().segments < books.length, `merged to ${merged.stats().segments} segments`);
    assert.equal(files.length, merged.stats().segments, files.join(','));
    assert.ok(!(await texts(merged, { query: 'harv', fields: ['title'] })).some((t) => t.startsWith('Harvest')));
    assert.deepEqual(await texts(merged, { query: 'harry potter and the', fields: ['title'] }), []);
    assert.deepEqual(await texts(merged, { query: 'potter and the', fields: ['title'] }), ['Potter and the']);
    assert.deepEqual(await texts(merged, { query: 'goblet', fields: ['title'] }), ['Goblet', 'Goblet of', 'Goblet of Fire']);
    assert.deepEqual(await texts(merged, { query: 'phil', fields: ['title'] }), []);
    await merged.verify();
    await merged.close();
  });

  it('names an unknown field, a field without suggest and an unknown key', async () => {
    const { index } = await open();
    const failure = async (request: Record<string, unknown>): Promise<YarrowError> => {
      try {
        await index.suggest(request);
      } catch (e) {
        assert.ok(e instanceof YarrowError);
        assert.equal(e.code, ErrorCode.invalidQuery);
        return e;
      }
      assert.fail('expected an error');
    };
    assert.equal((await failure({ query: 'a', fields: ['nope'] })).details.field, 'nope');
    const plain = await failure({ query: 'a', fields: ['title', 'body'] });
    assert.equal(plain.details.field, 'body');
    assert.match(plain.message, /no suggestions/);
    assert.match((await failure({ query: 'a', size: 3 })).message, /^size: unknown key/);
    assert.match((await failure({ fields: ['title'] })).message, /^query: expected a string/);
    assert.match((await failure({ query: 'a', rerank: { ltr: {} } })).message, /not implemented/);
    await index.close();
  });
});
