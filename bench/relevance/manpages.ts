/**
 * The judged collection of `npm run bench:relevance`: the C library and system call manual of the
 * Debian package `manpages-dev` (Linux man-pages 6.x; fetched with `apt-get download`, Debian's
 * own client, and unpacked with `dpkg-deb`), read as a known-item retrieval task:
 *
 * - a document is one page: its DESCRIPTION section (first {@link BODY_WORDS} words) and, as a title,
 *   the names it documents;
 * - a query is the one-line summary of a page's NAME section with the names removed ("allocate and
 *   free dynamic memory" for malloc(3)); the page it comes from is the one relevant document (pages
 *   sharing the same summary are all relevant).
 *
 * The summaries are written apart from the descriptions and often share few words with them, so
 * the task rewards both exact terms and paraphrase, which is what hybrid search is for. It is not
 * a TREC collection (one judged document per query, like MS MARCO's sparse judgements): the
 * human-judged collection of the benchmark is Cranfield (bench/relevance/cranfield.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { JudgedQuery } from './metrics.js';

/** Words of a page's description kept as its body (about 256 model tokens). */
export const BODY_WORDS = 180;

export interface Page {
  readonly _id: string;
  readonly names: string;
  readonly body: string;
}


/** Downloads and unpacks `manpages-dev` into `dir` once; returns the man directory. */
export function fetchManpages(dir: string): string {
  const man = join(dir, 'x', 'usr', 'share', 'man');
  if (existsSync(join(man, 'man3'))) return man;
  mkdirSync(dir, { recursive: true });
  execFileSync('apt-get', ['download', 'manpages-dev'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  const deb = readdirSync(dir).find((f) => f.startsWith('manpages-dev_') && f.endsWith('.deb'));
  if (deb === undefined) throw new Error(`apt-get download manpages-dev left no .deb in ${dir}`);
  execFileSync('dpkg-deb', ['-x', join(dir, deb), join(dir, 'x')]);
  return man;
}

/** Roff to plain text: font escapes, special characters and macro names go; macro arguments stay. */
function plain(line: string): string {
  let s = line;
  if (s.startsWith('.') || s.startsWith("'")) {
    // `.BR malloc ()` -> `malloc ()`: drop the macro name, keep (unquoted) arguments.
    const m = /^[.'][A-Za-z]{1,3}\s*(.*)$/.exec(s);
    s = m === null ? '' : m[1].replace(/"/g, '');
  }
  return s
    .replace(/\\f(\[[^\]]*\]|\(..|.)/g, '')
    .replace(/\\\(em|\\\(en/g, ' - ')
    .replace(/\\\(aq/g, "'")
    .replace(/\\\([a-z]{2}/gi, ' ')
    .replace(/\\[-e&|^]/g, (c) => (c === '\\-' ? '-' : c === '\\e' ? '\\' : ''))
    .replace(/\\./g, '')
    .trim();
}

/** The pages (documents) and their summaries (queries) of the unpacked manual. */
export function readManpages(man: string): { pages: Page[]; queries: JudgedQuery[] } {
  const pages: Page[] = [];
  const summaries = new Map<string, string[]>();
  // Several file names hold the same page (links for each function it documents): one document.
  const seen = new Set<string>();
  for (const section of ['man2', 'man3']) {
    for (const file of readdirSync(join(man, section)).sort()) {
      const roff = gunzipSync(readFileSync(join(man, section, file))).toString('utf8');
      if (/^\.so /m.test(roff.slice(0, 400)) && !roff.includes('.SH NAME')) continue;
      const sections = new Map<string, string[]>();
      let current: string[] | null = null;
      for (const line of roff.split('\n')) {
        if (line.startsWith('.\\"')) continue;
        const sh = /^\.SH\s+"?([^"]+)"?/.exec(line);
        if (sh !== null) {
          current = [];
          sections.set(sh[1].trim().toUpperCase(), current);
          continue;
        }
        if (current !== null) {
          const text = plain(line);
          if (text !== '') current.push(text);
        }
      }
      const name = sections.get('NAME')?.join(' ') ?? '';
      const dash = name.indexOf(' - ');
      const description = (sections.get('DESCRIPTION') ?? []).join(' ').split(/\s+/).filter((w) => w !== '');
      if (dash < 0 || description.length < 20) continue;
      const id = file.replace(/\.gz$/, '');
      const summary = name.slice(dash + 3).trim();
      const page = { _id: id, names: name.slice(0, dash).trim(), body: description.slice(0, BODY_WORDS).join(' ') };
      const key = `${page.names}\n${page.body}`;
      if (seen.has(key)) continue;
      seen.add(key);
      pages.push(page);
      const text = summary.toLowerCase();
      summaries.set(text, [...(summaries.get(text) ?? []), id]);
    }
  }
  const queries = [...summaries].map(([text, ids], i) => ({ id: `q${i}`, text, grades: new Map(ids.map((id) => [id, 1])) }));
  return { pages, queries };
}
