/**
 * The simple query syntax of `GET /<index>/_search?q=...`: a reduced form of Lucene's classic syntax
 * (and Elasticsearch's `simple_query_string`), translated into the JSON query DSL so that a query
 * string and a POSTed body run through one parser and one validator (`parseQuery`).
 *
 * Grammar (whitespace separates clauses; `\` escapes any character, `\ ` included):
 *
 *     clause   := ('+' | '-')? (field ':')? (phrase | term | '*' | '*:*')
 *     phrase   := '"' chars '"' ('~' digits)?          slop after the closing quote
 *     term     := chars ('*' | '~' digits?)?           trailing star: prefix; tilde: fuzzy
 *     field    := [letters digits _ . -]+ (not starting with '-')
 *
 * Unescaped `:` and `"` inside a term, and `*` or `~` other than at its end, are errors rather than
 * guesses: a silent reinterpretation would return plausible but wrong hits.
 */
import { ErrorCode, YarrowError } from '../errors.js';

type Occur = 'must' | 'should' | 'must_not';

/** One parsed clause before it becomes DSL. */
type Clause =
  | { readonly occur: Occur; readonly kind: 'all' }
  | { readonly occur: Occur; readonly kind: 'term' | 'prefix'; readonly field: string | null; readonly text: string }
  | { readonly occur: Occur; readonly kind: 'fuzzy'; readonly field: string | null; readonly text: string; readonly fuzziness: number | 'AUTO' }
  | { readonly occur: Occur; readonly kind: 'phrase'; readonly field: string | null; readonly text: string; readonly slop: number | null };

type Dsl = Record<string, unknown>;

/**
 * Parses `q` into the JSON query DSL (the same JSON a client would POST), searching `defaultFields`
 * for unqualified clauses. Plain clauses are `should` (with `minimum_should_match: 1` when nothing is
 * required), `+` clauses `must`, `-` clauses `must_not`; a query of only `-` clauses matches every
 * document except those. Empty lists are left out of the `bool`.
 * @throws YarrowError(ErrorCode.invalidQuery) naming the 0-based position (also in
 * `details.position`) on a syntax error, e.g. an unclosed quote, or when an unqualified clause
 * meets an empty `defaultFields`.
 */
export function parseQueryString(q: string, defaultFields: readonly string[]): unknown {
  const clauses = new ClauseScanner(q).scanAll();
  if (clauses.length === 0) return { match_all: {} };
  const must: Dsl[] = [];
  const should: Dsl[] = [];
  const mustNot: Dsl[] = [];
  for (const { clause, position } of clauses) {
    const dsl = toDsl(clause, defaultFields, position);
    (clause.occur === 'must' ? must : clause.occur === 'should' ? should : mustNot).push(dsl);
  }
  if (mustNot.length === 0 && must.length + should.length === 1) return must[0] ?? should[0];
  // A bool of only must_not clauses matches nothing; users writing `-draft` mean "all but drafts".
  if (must.length === 0 && should.length === 0) must.push({ match_all: {} });
  const bool: Dsl = {};
  if (must.length > 0) bool.must = must;
  if (should.length > 0) bool.should = should;
  if (mustNot.length > 0) bool.must_not = mustNot;
  if (must.length === 0) bool.minimum_should_match = 1;
  return { bool };
}

function toDsl(clause: Clause, defaultFields: readonly string[], position: number): Dsl {
  if (clause.kind === 'all') return { match_all: {} };
  if (clause.field !== null) return fieldDsl(clause, clause.field);
  if (defaultFields.length === 0) {
    throw syntaxError(`the clause at position ${position} names no field and there are no default fields`, position);
  }
  if (defaultFields.length === 1) return fieldDsl(clause, defaultFields[0]);
  if (clause.kind === 'term') {
    return { multi_match: { query: clause.text, fields: [...defaultFields], type: 'most_fields' } };
  }
  return { dis_max: { queries: defaultFields.map((field) => fieldDsl(clause, field)) } };
}

function fieldDsl(clause: Exclude<Clause, { kind: 'all' }>, field: string): Dsl {
  switch (clause.kind) {
    case 'term':
      return { match: { [field]: { query: clause.text } } };
    case 'phrase':
      return {
        match_phrase: { [field]: clause.slop === null ? { query: clause.text } : { query: clause.text, slop: clause.slop } },
      };
    case 'prefix':
      return { prefix: { [field]: { value: clause.text } } };
    case 'fuzzy':
      return { fuzzy: { [field]: { value: clause.text, fuzziness: clause.fuzziness } } };
  }
}

function syntaxError(reason: string, position: number): YarrowError {
  return new YarrowError(ErrorCode.invalidQuery, `q: ${reason}`, { path: 'q', position });
}

const spaceRe = /\s/u;
const fieldCharRe = /[\p{L}\p{N}_.-]/u;

function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && spaceRe.test(ch);
}

/** Whether `i` is the end of a clause: the end of input or an unescaped whitespace character. */
function atClauseEnd(q: string, i: number): boolean {
  return i >= q.length || isSpace(q[i]);
}

/** One left-to-right pass over the query string; every character is looked at a bounded number of times. */
class ClauseScanner {
  private i = 0;

  constructor(private readonly q: string) {}

  scanAll(): { clause: Clause; position: number }[] {
    const out: { clause: Clause; position: number }[] = [];
    const q = this.q;
    for (;;) {
      while (this.i < q.length && isSpace(q[this.i])) this.i++;
      if (this.i >= q.length) return out;
      const position = this.i;
      out.push({ clause: this.clause(), position });
    }
  }

  private clause(): Clause {
    const q = this.q;
    let occur: Occur = 'should';
    const op = q[this.i];
    if (op === '+' || op === '-') {
      occur = op === '+' ? 'must' : 'must_not';
      this.i++;
      if (atClauseEnd(q, this.i)) throw syntaxError(`expected a clause after "${op}" at position ${this.i - 1}`, this.i - 1);
      const next = q[this.i];
      if (next === '+' || next === '-') throw syntaxError(`unexpected "${next}" at position ${this.i}`, this.i);
    }
    if (q.startsWith('*:*', this.i) && atClauseEnd(q, this.i + 3)) {
      this.i += 3;
      return { occur, kind: 'all' };
    }
    const field = this.fieldPrefix();
    if (field !== null && atClauseEnd(q, this.i)) {
      throw syntaxError(`expected a term or phrase after "${field}:" at position ${this.i}`, this.i);
    }
    if (q[this.i] === '"') return this.phrase(occur, field);
    return this.term(occur, field);
  }

  /** Consumes `name:` and returns the name, or returns null and consumes nothing. */
  private fieldPrefix(): string | null {
    const q = this.q;
    const begin = this.i;
    if (q[begin] === ':') throw syntaxError(`empty field name before ":" at position ${begin}`, begin);
    let j = begin;
    while (j < q.length && fieldCharRe.test(q[j])) j++;
    if (j === begin || q[j] !== ':') return null;
    this.i = j + 1;
    return q.slice(begin, j);
  }

  private phrase(occur: Occur, field: string | null): Clause {
    const q = this.q;
    const open = this.i;
    let text = '';
    let i = open + 1;
    for (;;) {
      if (i >= q.length) throw syntaxError(`unclosed quote at position ${open}`, open);
      const ch = q[i];
      if (ch === '"') break;
      if (ch === '\\') {
        if (i + 1 >= q.length) throw syntaxError(`unclosed quote at position ${open}`, open);
        text += q[i + 1];
        i += 2;
      } else {
        text += ch;
        i++;
      }
    }
    i++; // the closing quote
    if (text.trim() === '') throw syntaxError(`empty phrase at position ${open}`, open);
    let slop: number | null = null;
    if (q[i] === '~') {
      const digitsBegin = i + 1;
      i = digitsBegin;
      while (i < q.length && q[i] >= '0' && q[i] <= '9') i++;
      if (i === digitsBegin) throw syntaxError(`expected a slop (digits) after "~" at position ${i - 1}`, i - 1);
      slop = Number(q.slice(digitsBegin, i));
      if (!Number.isSafeInteger(slop)) throw syntaxError(`slop too large at position ${digitsBegin}`, digitsBegin);
    }
    if (!atClauseEnd(q, i)) throw syntaxError(`expected whitespace after the phrase at position ${i}`, i);
    this.i = i;
    return { occur, kind: 'phrase', field, text, slop };
  }

  private term(occur: Occur, field: string | null): Clause {
    const q = this.q;
    let text = '';
    let i = this.i;
    while (!atClauseEnd(q, i)) {
      const ch = q[i];
      if (ch === '\\') {
        if (i + 1 >= q.length) throw syntaxError(`nothing to escape after "\\" at position ${i}`, i);
        text += q[i + 1];
        i += 2;
        continue;
      }
      if (ch === '"' || ch === ':') {
        throw syntaxError(`unexpected "${ch}" at position ${i}; escape it as \\${ch}`, i);
      }
      if (ch === '*') {
        if (!atClauseEnd(q, i + 1)) {
          throw syntaxError(`only a trailing "*" is supported, found one at position ${i}; escape it as \\*`, i);
        }
        this.i = i + 1;
        if (text !== '') return { occur, kind: 'prefix', field, text };
        if (field === null) return { occur, kind: 'all' };
        throw syntaxError(`"${field}:*" is not supported (position ${i})`, i);
      }
      if (ch === '~') return this.fuzzy(occur, field, text, i);
      text += ch;
      i++;
    }
    this.i = i;
    return { occur, kind: 'term', field, text };
  }

  private fuzzy(occur: Occur, field: string | null, text: string, tilde: number): Clause {
    const q = this.q;
    if (text === '') throw syntaxError(`expected a term before "~" at position ${tilde}`, tilde);
    let i = tilde + 1;
    while (i < q.length && q[i] >= '0' && q[i] <= '9') i++;
    if (!atClauseEnd(q, i)) throw syntaxError(`unexpected "${q[i]}" after "~" at position ${i}`, i);
    const digits = q.slice(tilde + 1, i);
    let fuzziness: number | 'AUTO' = 'AUTO';
    if (digits !== '') {
      fuzziness = Number(digits);
      if (fuzziness > 2) throw syntaxError(`fuzziness must be 0, 1 or 2, got ${digits} at position ${tilde + 1}`, tilde + 1);
    }
    this.i = i;
    return { occur, kind: 'fuzzy', field, text, fuzziness };
  }
}
