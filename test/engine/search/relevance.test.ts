import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Index } from '../../../src/engine/search-index.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';

/** A small hand-made catalogue where body text mentions other items' titles on purpose. */
const books = [
  { _id: 'garden', title: 'The Kitchen Garden', body: 'Growing vegetables and herbs in small spaces, from seed to harvest.' },
  { _id: 'bread', title: 'Bread Baking', body: 'Sourdough starters, kneading, proofing and baking crusty loaves at home; a garden of flavours.' },
  { _id: 'kitchen-design', title: 'Kitchen Design Basics', body: 'Layouts, storage and lighting for the kitchen; why every kitchen needs a herb garden window.' },
  { _id: 'herbs', title: 'Herbs', body: 'A guide to growing herbs: basil, thyme, rosemary. Herbs in the kitchen garden, herbs in pots, herbs everywhere.' },
  { _id: 'night-sky', title: 'The Night Sky', body: 'Stars, planets and constellations for beginners with binoculars.' },
  { _id: 'telescopes', title: 'Choosing Telescopes', body: 'Refractors and reflectors explained; watching the night sky, the night sky again, and more night sky.' },
  { _id: 'sea-kayaking', title: 'Sea Kayaking', body: 'Paddling techniques, tides and safety on open water.' },
  { _id: 'coast', title: 'Coastal Walks', body: 'Cliffs, beaches and sea views; kayaking tours and sea kayaking clubs along the coast.' },
  { _id: 'running', title: 'Running Your First Marathon', body: 'Training plans, shoes, nutrition and race-day tactics.' },
  { _id: 'shoes', title: 'Shoes', body: 'A history of shoes for running, walking and dancing; running shoes, marathon shoes.' },
];

/** Judged answers: the item whose title is the query must rank first. */
const judgements: [string, string][] = [
  ['kitchen garden', 'garden'],
  ['herbs', 'herbs'],
  ['night sky', 'night-sky'],
  ['sea kayaking', 'sea-kayaking'],
  ['bread baking', 'bread'],
  ['running your first marathon', 'running'],
  ['shoes', 'shoes'],
];

describe('relevance with the english analyzer', () => {
  it('ranks exact-title matches first over title-like and body-like fields', async () => {
    const english = { type: 'text', search: { lexical: { analyze: 'english' } } };
    const index = await Index.open(new MemoryDirectory(), { mapping: { fields: { title: english, body: english } }, refreshIntervalMs: 0 });
    await index.upsert(books);
    await index.refresh();
    for (const [query, expected] of judgements) {
      for (const type of ['best_fields', 'most_fields']) {
        const res = index.search({ query: { multi_match: { query, fields: ['title^2', 'body'], type } } });
        assert.equal(res.hits[0]?._id, expected, `"${query}" (${type}) ranked ${res.hits.map((h) => h._id).join(', ')}`);
      }
    }
    await index.close();
  });
});
