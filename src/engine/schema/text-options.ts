/**
 * The options only text fields have, in Nixiesearch 0.8's shapes (`SearchParams.scala`,
 * `SuggestSchema.scala`): `search` (lexical analyzer and/or semantic vector index) and `suggest`
 * (completion candidates). The mapping keeps them all; what the engine serves of each is documented
 * in docs/nixiesearch.md.
 */
import { analyzerNames } from '../analysis/analyzers.js';
import type { MappingProblems } from './mapping-problems.js';
import { show } from './mapping-problems.js';

/** Vector quantisations a semantic field may ask for. */
export const QUANTIZATIONS = ['float32', 'int8', 'int4', 'int1'] as const;
/** Vector similarity functions a semantic field may ask for. */
export const DISTANCES = ['dot', 'cosine'] as const;
/** Largest vector dimension of a pre-embedded semantic field (as Nixiesearch). */
export const MAX_VECTOR_DIM = 8192;

/** `search.semantic` of a text field: where vectors come from and how their index is built. */
export interface SemanticMapping {
  /** Name of an `inference.embedding` model that embeds the text, or null for pre-embedded vectors. */
  readonly model: string | null;
  /** Vector dimension of pre-embedded documents (`dim`), or null when `model` decides. */
  readonly dim: number | null;
  /** HNSW beam width while building (`ef`). */
  readonly ef: number;
  /** HNSW links per node (`m`). */
  readonly m: number;
  /** Threads that build the graph, or null: one per core. */
  readonly workers: number | null;
  readonly quantize: (typeof QUANTIZATIONS)[number];
  readonly distance: (typeof DISTANCES)[number];
}

/** `suggest` of a text field: word n-grams of the field become completion candidates. */
export interface SuggestMapping {
  /** Lower-case the candidates. */
  readonly lowercase: boolean;
  /** Shortest n-gram, in words (`expand.min-terms`). */
  readonly minTerms: number;
  /** Longest n-gram, in words (`expand.max-terms`). */
  readonly maxTerms: number;
  /** Analyzer that splits the field into words (`analyze`). */
  readonly analyzer: string;
}

/** The analyzer of `search: true` or an absent `search`, and of `lexical: {}`. */
export const DEFAULT_ANALYZER = 'standard';

/** What `search` of a text field asks for. */
export interface SearchOptions {
  /** Analyzer of the lexical index, or null when the field is not lexically searchable. */
  readonly analyzer: string | null;
  readonly semantic: SemanticMapping | null;
}

const searchHints = {
  type: 'the old "search: { type: ... }" form is gone (Nixiesearch 0.8 refuses it too): write search: { lexical: { analyze: <language> } } and/or search: { semantic: { model: <name> } }',
  language: 'write search: { lexical: { analyze: <language> } }',
};

/**
 * `search`: absent or `true` (lexical, standard analyzer), `false` (not searchable), or an object
 * with `lexical: { analyze }` and/or `semantic: { model | dim, ef, m, workers, quantize, distance }`.
 * An empty object builds neither index, as in Nixiesearch.
 */
export function parseSearch(raw: unknown, path: string, problems: MappingProblems): SearchOptions {
  if (raw === undefined || raw === true) return { analyzer: DEFAULT_ANALYZER, semantic: null };
  if (raw === false) return { analyzer: null, semantic: null };
  const search = problems.object(raw, path);
  if (search === undefined) return { analyzer: null, semantic: null };
  problems.keys(search, ['lexical', 'semantic'], path, searchHints);
  let analyzer: string | null = null;
  if (search.lexical !== undefined) {
    // `lexical:` with nothing after it is YAML null: the default analyzer, as `lexical: {}`.
    const lexical = search.lexical === null ? {} : problems.object(search.lexical, `${path}.lexical`);
    if (lexical !== undefined) {
      problems.keys(lexical, ['analyze'], `${path}.lexical`, { language: 'the key is "analyze", e.g. analyze: en' });
      analyzer = parseAnalyzer(lexical.analyze, `${path}.lexical.analyze`, problems);
    }
  }
  const semantic = search.semantic === undefined ? null : parseSemantic(search.semantic, `${path}.semantic`, problems);
  return { analyzer, semantic };
}

/** An analyzer name the analysis layer registers; absent means the default. */
export function parseAnalyzer(raw: unknown, path: string, problems: MappingProblems): string {
  if (raw === undefined || raw === null) return DEFAULT_ANALYZER;
  if (typeof raw !== 'string' || !analyzerNames.includes(raw)) {
    problems.add(path, `expected one of ${analyzerNames.join(', ')} but got ${show(raw)}`);
    return DEFAULT_ANALYZER;
  }
  return raw;
}

function parseSemantic(raw: unknown, path: string, problems: MappingProblems): SemanticMapping | null {
  const s = problems.object(raw, path);
  if (s === undefined) return null;
  problems.keys(s, ['model', 'dim', 'ef', 'm', 'workers', 'quantize', 'distance'], path);
  let model: string | null = null;
  if (s.model !== undefined) {
    if (typeof s.model === 'string' && s.model !== '') model = s.model;
    else problems.add(`${path}.model`, `expected the name of an inference.embedding model but got ${show(s.model)}`);
  }
  const dim = s.dim === undefined ? null : problems.integer(s, 'dim', 1, 1, MAX_VECTOR_DIM, path);
  if (s.model === undefined && s.dim === undefined) {
    problems.add(path, 'expected "model" (an inference.embedding model that embeds the text) or "dim" (the size of pre-embedded vectors)');
  }
  return {
    model,
    dim,
    ef: problems.integer(s, 'ef', 32, 1, 10_000, path),
    m: problems.integer(s, 'm', 16, 2, 512, path),
    workers: s.workers === undefined ? null : problems.integer(s, 'workers', 1, 1, 1024, path),
    quantize: problems.oneOf(s, 'quantize', QUANTIZATIONS, 'float32', path),
    distance: problems.oneOf(s, 'distance', DISTANCES, 'dot', path),
  };
}

/** `suggest`: absent or `false` (none), `true` (defaults) or `{ lowercase, expand: { min-terms, max-terms }, analyze }`. */
export function parseSuggest(raw: unknown, path: string, problems: MappingProblems): SuggestMapping | null {
  if (raw === undefined || raw === false) return null;
  const defaults: SuggestMapping = { lowercase: false, minTerms: 1, maxTerms: 3, analyzer: DEFAULT_ANALYZER };
  if (raw === true) return defaults;
  const s = problems.object(raw, path);
  if (s === undefined) return null;
  problems.keys(s, ['lowercase', 'expand', 'analyze'], path);
  let minTerms = defaults.minTerms;
  let maxTerms = defaults.maxTerms;
  if (s.expand !== undefined) {
    const expand = problems.object(s.expand, `${path}.expand`);
    if (expand !== undefined) {
      problems.keys(expand, ['min-terms', 'max-terms'], `${path}.expand`);
      minTerms = problems.integer(expand, 'min-terms', minTerms, 1, 16, `${path}.expand`);
      maxTerms = problems.integer(expand, 'max-terms', maxTerms, 1, 16, `${path}.expand`);
      if (minTerms > maxTerms) problems.add(`${path}.expand`, `min-terms (${minTerms}) must not exceed max-terms (${maxTerms})`);
    }
  }
  return {
    lowercase: problems.flag(s, 'lowercase', defaults.lowercase, path),
    minTerms,
    maxTerms,
    analyzer: parseAnalyzer(s.analyze, `${path}.analyze`, problems),
  };
}
