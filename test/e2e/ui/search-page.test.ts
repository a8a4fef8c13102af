/**
 * The search page in a real browser: Debian's chromium driven by playwright-core, against the
 * built `yarrow standalone` serving the sample movies and a second index. Every expectation comes
 * from the search API of the same server, asked directly.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { Workspace } from '../cli/cli-harness.js';
import { ServerProcess } from '../api/server-harness.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ROOT = new URL('../../../', import.meta.url);

/** Two indexes with different mappings: the page must adapt its facets and sorts to each. */
const CONFIG = `store:
  local: { path: ./data }
schema:
  movies:
    fields:
      _id:      { type: id }
      title:    { type: text, search: { lexical: { analyze: english } }, sort: true }
      overview: { type: text, search: { lexical: { analyze: english } } }
      genres:   { type: "text[]", search: false, filter: true, facet: true }
      year:     { type: int, filter: true, sort: true, facet: true }
      rating:   { type: double, filter: true, sort: true }
  books:
    fields:
      _id:    { type: id }
      title:  { type: text, search: { lexical: { analyze: english } } }
      author: { type: text, search: false, filter: true, facet: true }
      pages:  { type: int, filter: true, sort: true }
`;

const AUTHORS = ['Le Guin', 'Lem', 'Butler'];
const BOOKS = Array.from({ length: 14 }, (_, i) => JSON.stringify({ _id: `b${i}`, title: `Book ${i} of the sea`, author: AUTHORS[i % 3], pages: 100 + 37 * i })).join('\n');

/** The little of the DOM that functions run in the page use. */
interface PageDocument {
  querySelectorAll(selector: string): ArrayLike<{ getAttribute(name: string): string | null }>;
}

interface ApiHits {
  total: number;
  ids: string[];
  aggs: Record<string, { buckets: { term?: unknown; count: number }[] }>;
}

describe('search page (chromium)', () => {
  let ws: Workspace;
  let server: ServerProcess;
  let browser: Browser;
  /** Console errors, CSP refusals and uncaught exceptions of every page opened. */
  const problems: string[] = [];

  const api = async (index: string, body: Record<string, unknown>): Promise<ApiHits> => {
    const r = await server.search(index, body);
    assert.equal(r.status, 200, JSON.stringify(r.json));
    return { total: r.json.total, ids: r.json.hits.map((h) => h._id), aggs: (r.json.aggs ?? {}) as ApiHits['aggs'] };
  };

  const open = async (options: { width?: number; dark?: boolean } = {}): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: options.width ?? 1100, height: 800 }, colorScheme: options.dark === true ? 'dark' : 'light' });
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => { problems.push(`page error: ${e.message}`); });
    return page;
  };

  const attributes = async (page: Page, selector: string, name: string): Promise<(string | null)[]> => Promise.all((await page.locator(selector).all()).map((l) => l.getAttribute(name)));
  const shownIds = (page: Page): Promise<(string | null)[]> => attributes(page, '.hits .hit', 'data-id');


  /** Waits until the page lists exactly `ids` (the page renders asynchronously after each action). */
  const waitForIds = async (page: Page, ids: readonly string[]): Promise<void> => {
    try {
      // Runs in the page; these tests are type-checked without the DOM's types, hence PageDocument.
      await page.waitForFunction((want) => {
        const doc = (globalThis as unknown as { document: PageDocument }).document;
        return JSON.stringify(Array.from(doc.querySelectorAll('.hits .hit'), (e) => e.getAttribute('data-id'))) === want;
      }, JSON.stringify(ids), { timeout: 10_000 });
    } catch (e) {
      throw new Error(`the page shows ${JSON.stringify(await shownIds(page))}, the API ${JSON.stringify(ids)}: ${(e as Error).message}`);
    }
  };

  const shownTotal = async (page: Page): Promise<number> => Number(await page.locator('.summary .total').textContent());

  before(async () => {
    ws = await Workspace.create(CONFIG);
    server = await ServerProcess.start(ws, 'standalone');
    const movies = await readFile(new URL('samples/movies.jsonl', ROOT));
    assert.equal((await server.index('movies', movies, '?refresh=true')).status, 200);
    assert.equal((await server.index('books', BOOKS, '?refresh=true')).status, 200);
    browser = await chromium.launch({ executablePath: CHROMIUM });
  });

  after(async () => {
    await browser.close();
    await server.stop('SIGTERM');
    await ws.cleanup();
  });

  it('serves the page at / with a strict CSP and its assets from /ui/', async () => {
    const res = await server.fetch('/');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
    const html = await res.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/ui\/[^"]+)"/g)].map((m) => m[1]);
    assert.equal(assets.length, 2, html);
    for (const a of assets) assert.equal((await server.fetch(a)).status, 200, a);
    assert.doesNotMatch(html, /<script>|<style|style=|https?:\/\//);
  });

  it('is served by yarrow search too (read-only, same store), while yarrow api keeps its JSON /', async () => {
    await server.fetch('/movies/_flush', { method: 'POST' });
    await server.fetch('/books/_flush', { method: 'POST' });
    const searcher = await ServerProcess.start(ws, 'search');
    const apiWs = await Workspace.create(CONFIG.replace('local: { path: ./data }', 'memory: {}'));
    const writer = await ServerProcess.start(apiWs, 'api');
    try {
      const res = await searcher.fetch('/');
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      const page = await open();
      const expected = await api('movies', { query: { multi_match: { query: 'world', fields: ['title', 'overview'] } }, size: 10 });
      await page.goto(`${searcher.url}/?index=movies&q=world`);
      await waitForIds(page, expected.ids);
      await page.context().close();
      const info = (await (await writer.fetch('/')).json()) as { mode: string; indexes: string[] };
      assert.deepEqual(info, { ...info, mode: 'api', indexes: ['movies', 'books'] });
    } finally {
      await searcher.stop('SIGTERM');
      await writer.stop('SIGTERM');
      await apiWs.cleanup();
    }
  });

  it('searches, highlights, filters, pages, reloads, goes back and forward, and switches index', async () => {
    const page = await open();
    const all = await api('movies', { query: { match_all: {} }, sort: ['_score'], size: 10, aggs: { genres: { term: { field: 'genres', size: 10 } } } });
    await page.goto(`${server.url}/`);
    await waitForIds(page, all.ids);
    assert.match(page.url(), /\?index=movies$/, 'the URL names the index the page picked');
    assert.equal(await shownTotal(page), all.total);
    assert.equal(await page.locator('fieldset.modes').count(), 0, 'no lexical/semantic/hybrid switch without semantic fields');

    // `/` focuses the box; Enter searches.
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('/');
    assert.equal(await page.evaluate('document.activeElement?.id'), 'q');
    await page.keyboard.type('world');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=world/);
    const world = await api('movies', { query: { multi_match: { query: 'world', fields: ['title', 'overview'] } }, size: 10 });
    assert.ok(world.ids.length > 0);
    await waitForIds(page, world.ids);
    assert.equal(await shownTotal(page), world.total);
    const marks = await page.locator('.hits mark').allTextContents();
    assert.ok(marks.length >= world.ids.length, `one highlight per hit at least: ${JSON.stringify(marks)}`);
    for (const m of marks) assert.match(m, /^world/i);

    // Ticking a facet value narrows the hits to its count.
    await page.locator('#q').fill('');
    await page.keyboard.press('Enter');
    await waitForIds(page, all.ids);
    const sf = all.aggs.genres.buckets.find((b) => b.term === 'science fiction');
    assert.ok(sf !== undefined && sf.count < all.total);
    const box = page.locator('.facet[data-field="genres"] li', { has: page.locator('.facet-label', { hasText: /^science fiction$/ }) });
    assert.equal(Number((await box.locator('.count').textContent())?.replace(/\D/g, '')), sf.count);
    await box.locator('input').check();
    await page.waitForURL(/genres=science\+fiction/);
    const filtered = await api('movies', { query: { match_all: {} }, sort: ['_score'], size: 10, filters: { include: { term: { genres: 'science fiction' } } } });
    await waitForIds(page, filtered.ids);
    assert.equal(await shownTotal(page), sf.count);
    assert.equal(filtered.total, sf.count);
    await box.locator('input').uncheck();
    await waitForIds(page, all.ids);
    assert.equal(await shownTotal(page), all.total);

    // Page forward (search_after), reload the URL, back and forward.
    const second = await api('movies', { query: { match_all: {} }, sort: ['_score'], from: 10, size: 10 });
    await page.getByRole('link', { name: /next/i }).click();
    await page.waitForURL(/page=2/);
    await waitForIds(page, second.ids);
    const pageTwo = page.url();
    await page.reload();
    await waitForIds(page, second.ids);
    assert.equal(page.url(), pageTwo);
    await page.goBack();
    await waitForIds(page, all.ids);
    assert.doesNotMatch(page.url(), /page=/);
    await page.goForward();
    await waitForIds(page, second.ids);

    // Another index: its own hits, facets and sorts.
    const books = await api('books', { query: { match_all: {} }, sort: ['_score'], size: 10 });
    await page.locator('#index').selectOption('books');
    await page.waitForURL(/index=books/);
    await waitForIds(page, books.ids);
    assert.equal(await shownTotal(page), books.total);
    assert.deepEqual(await attributes(page, '.facet', 'data-field'), ['author']);
    assert.deepEqual(await attributes(page, '#sort option', 'value'), ['', 'pages:asc', 'pages:desc']);
    await page.goBack();
    await waitForIds(page, second.ids);
    await page.context().close();
  });

  it('opens a shared URL with a query, two facet values and a sort', async () => {
    const page = await open();
    const request = { query: { multi_match: { query: 'sea', fields: ['title'] } }, sort: [{ pages: { order: 'desc' } }], filters: { include: { terms: { author: ['Lem', 'Butler'] } } } };
    const expected = await api('books', { ...request, size: 10, from: 0, aggs: { author: { term: { field: 'author' } } } });
    assert.ok(expected.total > 1);
    await page.goto(`${server.url}/?index=books&q=sea&sort=pages:desc&author=Lem&author=Butler`);
    await waitForIds(page, expected.ids);
    assert.equal(await page.locator('#sort').inputValue(), 'pages:desc');
    assert.deepEqual(await page.locator('.facet input:checked').count(), 2);
    await page.context().close();
  });

  it('suggests recent queries, navigable with the arrow keys, without moving the page', async () => {
    const page = await open();
    await page.goto(`${server.url}/?index=movies`);
    await page.locator('.hits .hit').first().waitFor();
    for (const q of ['matrix', 'heat']) {
      await page.locator('#q').fill(q);
      await page.keyboard.press('Enter');
      await page.waitForURL(new RegExp(`q=${q}`));
      await waitForIds(page, (await api('movies', { query: { multi_match: { query: q, fields: ['title', 'overview'] } }, size: 10 })).ids);
    }
    await page.locator('#q').fill('');
    const where = async (): Promise<unknown[]> => Promise.all(['.results', '.hits .hit'].map((sel) => page.locator(sel).first().boundingBox()));
    const before = await where();
    await page.locator('#q').pressSequentially('ma');
    const listbox = page.getByRole('listbox', { name: 'Recent searches' });
    await listbox.waitFor();
    assert.deepEqual(await listbox.getByRole('option').allTextContents(), ['matrix']);
    assert.deepEqual(await where(), before, 'the results stay where they are while typing');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator('#q').getAttribute('aria-activedescendant'), 'suggestion-0');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=matrix/);
    const matrix = await api('movies', { query: { multi_match: { query: 'matrix', fields: ['title', 'overview'] } }, size: 10 });
    await waitForIds(page, matrix.ids);
    await page.context().close();
  });

  it('has no serious or critical accessibility violations (axe-core), light and dark, wide and 360 px', async () => {
    const axe = await readFile(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');
    for (const options of [{ width: 1100 }, { width: 360, dark: true }]) {
      const page = await open(options);
      await page.goto(`${server.url}/?index=movies&q=world&genres=action`);
      await page.locator('.hits .hit').first().waitFor();
      // Evaluated over the DevTools protocol, so the page's CSP does not apply to the checker.
      await page.evaluate(axe);
      const violations = await page.evaluate<{ id: string; impact: string; targets: unknown[] }[]>(
        `axe.run().then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target) })))`,
      );
      const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad, [], `${JSON.stringify(options)}: ${JSON.stringify(violations)}`);
      if (options.width === 360) {
        const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
        assert.equal(overflow, 0, 'no sideways scrolling at 360 px');
      }
      await page.context().close();
    }
  });

  it('renders the hits of its URL before the load event (chromium --dump-dom)', async () => {
    const expected = await api('movies', { query: { multi_match: { query: 'crime world', fields: ['title', 'overview'] } }, size: 10 });
    assert.ok(expected.ids.length > 1);
    const { stdout } = await promisify(execFile)(CHROMIUM, ['--headless', '--no-sandbox', '--dump-dom', `${server.url}/?index=movies&q=crime+world`], { maxBuffer: 10 * 1024 * 1024 });
    const dumped = [...stdout.matchAll(/class="hit" data-id="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(dumped, expected.ids);
    assert.match(stdout, /<mark>(crime|world)<\/mark>/i);
  });

  it('shows readable messages for an unknown index and an unreachable server, never a blank page', async () => {
    const page = await open();
    await page.goto(`${server.url}/?index=nope`);
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').textContent() ?? '', /no index "nope".*movies, books/);
    await page.goto(`${server.url}/?index=movies`);
    await page.locator('.hits .hit').first().waitFor();
    assert.deepEqual(problems, [], 'no console errors, CSP refusals or exceptions so far');
    await server.stop('SIGTERM');
    await page.locator('#q').fill('alien');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').textContent() ?? '', /could not be reached/);
    assert.ok((await page.locator('#q').count()) === 1, 'the page is still there');
    await page.context().close();
  });
});
