/**
 * The Cranfield collection, the classic human-judged test collection (Cleverdon, 1960s): 1,400
 * abstracts of aeronautics papers, 225 questions written by the papers' authors, and graded
 * relevance judgements. `scripts/relevance/fetch-cranfield.sh` lays the files out in a directory;
 * this module reads them:
 *
 * - `cran.all.1400`: `.I <id>`, then `.T` title, `.A` authors, `.B` source, `.W` abstract (which
 *   most often begins with the title again). A document is `{_id, title, text}`; an empty
 *   abstract becomes the title, and the two documents with neither (471 and 995) have no `text`:
 *   Yarrow refuses an empty string in a semantic field, and they stay in the collection because
 *   cranqrel judges one of them (an unfindable document costs every method alike).
 * - `cran.qry`: `.I <n>` then `.W` question. Its `.I` numbers skip values (001 to 365), while
 *   `cranqrel` numbers the questions 1 to 225 in file order: the id is the position.
 * - `cranqrel`: `query doc grade`, grade 1 = "a complete answer", 2 = high relevance, 3 =
 *   useful, 4 = minimum interest, -1 = no interest (cranqrel.readme quotes Cleverdon). Gains
 *   are 5 - grade (4 for a complete answer down to 1), 0 for -1. Queries with no relevant
 *   document are left out, as trec_eval leaves them out.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JudgedQuery } from './metrics.js';

export interface CranfieldDoc {
  readonly _id: string;
  readonly title: string;
  /** Absent for the two documents with neither title nor abstract (an empty text has nothing to embed). */
  readonly text?: string;
}

/** Splits a `.I`-record file into records of `field letter -> text` (whitespace collapsed). */
function records(file: string): Map<string, string>[] {
  const out: Map<string, string>[] = [];
  let field = '';
  let lines: string[] = [];
  let record: Map<string, string> | null = null;
  const close = (): void => {
    if (record !== null && field !== '') record.set(field, lines.join(' ').replace(/\s+/g, ' ').trim());
  };
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const marker = /^\.([ITABW])\b\s*(.*)$/.exec(line);
    if (marker === null) {
      lines.push(line);
      continue;
    }
    close();
    if (marker[1] === 'I') {
      record = new Map([['I', marker[2].trim()]]);
      out.push(record);
      field = '';
    } else {
      field = marker[1];
    }
    lines = [];
  }
  close();
  return out;
}

/** The documents and judged queries of the Cranfield files in `dir`. */
export function readCranfield(dir: string): { docs: CranfieldDoc[]; queries: JudgedQuery[] } {
  const docs = records(join(dir, 'cran.all.1400')).map((r): CranfieldDoc => {
    const _id = r.get('I') ?? '';
    const title = r.get('T') ?? '';
    const text = r.get('W') || title;
    return text === '' ? { _id, title } : { _id, title, text };
  });
  const grades = new Map<string, Map<string, number>>();
  for (const line of readFileSync(join(dir, 'cranqrel'), 'utf8').split('\n')) {
    const cols = line.trim().split(/\s+/);
    if (cols.length !== 3) continue;
    const [query, doc, grade] = cols;
    const g = Number(grade);
    const judged = grades.get(query) ?? new Map<string, number>();
    judged.set(doc, g >= 1 && g <= 4 ? 5 - g : 0);
    grades.set(query, judged);
  }
  const queries = records(join(dir, 'cran.qry'))
    .map((r, i) => ({ id: String(i + 1), text: r.get('W') ?? '', grades: grades.get(String(i + 1)) ?? new Map<string, number>() }))
    .filter((q) => [...q.grades.values()].some((g) => g > 0));
  return { docs, queries };
}
