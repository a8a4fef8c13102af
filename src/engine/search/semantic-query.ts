/**
 * `semantic` queries: text that the field's model embeds before planning, so the planner only ever
 * sees vectors. `{"semantic": {"field": f, "query": text, "k": 10, "num_candidates": 15}}` and
 * Nixiesearch's short form `{"semantic": {"<field>": "text"}}` become
 * `{"knn": {"field": f, "query_vector": [...], "k", "num_candidates"}}` wherever a query may stand
 * (top level, bool clauses, dis_max, rrf/linear retrievers). Texts are embedded as queries (the
 * model adds its query prompt) in one call per model; the model's cache makes a repeated query free.
 */
import type { Embedder } from '../embedder.js';
import { ErrorCode, YarrowError } from '../errors.js';
import type { Mapping } from '../schema/mapping.js';
import { invalid } from './query.js';

/** One `semantic` node found in a query tree, and where to put its replacement. */
interface SemanticNode {
  readonly path: string;
  readonly field: string;
  readonly model: string;
  readonly text: string;
  readonly k: unknown;
  readonly numCandidates: unknown;
  readonly replace: (knn: unknown) => void;
}

/**
 * Returns `query` with every `semantic` node replaced by a `knn` node carrying the embedded text;
 * `query` itself is not modified. Throws `invalid_query` naming the path when a node is malformed,
 * its field has no embedding model, or the model is not loaded in this process.
 */
export async function embedSemanticQueries(query: unknown, mapping: Mapping, embedders: ReadonlyMap<string, Embedder>): Promise<unknown> {
  if (!mentionsSemantic(query)) return query;
  const root = { query: structuredClone<unknown>(query) };
  const nodes: SemanticNode[] = [];
  collect(root.query, 'query', (v) => (root.query = v), mapping, nodes);
  const byModel = new Map<string, SemanticNode[]>();
  for (const n of nodes) {
    if (!embedders.has(n.model)) {
      throw invalid(n.path, `field "${n.field}" is embedded by model "${n.model}", which this process has not loaded (inference.embedding.${n.model})`, { field: n.field });
    }
    byModel.set(n.model, [...(byModel.get(n.model) ?? []), n]);
  }
  for (const [model, list] of byModel) {
    let vectors: Float32Array[];
    try {
      vectors = await embedders.get(model)!.embed(list.map((n) => n.text), 'query');
    } catch (e) {
      throw new YarrowError(ErrorCode.embeddingFailed, `embedding model "${model}" failed on the query text of ${list[0].path}: ${(e as Error).message}`, { field: list[0].field, model }, { cause: e });
    }
    list.forEach((n, i) => {
      n.replace({
        knn: {
          field: n.field,
          query_vector: Array.from(vectors[i]),
          ...(n.k === undefined ? {} : { k: n.k }),
          ...(n.numCandidates === undefined ? {} : { num_candidates: n.numCandidates }),
        },
      });
    });
  }
  return root.query;
}

/** A cheap pre-check, so lexical requests pay nothing: the key `semantic` appears somewhere. */
function mentionsSemantic(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return v.some(mentionsSemantic);
  return Object.entries(v).some(([k, child]) => k === 'semantic' || mentionsSemantic(child));
}

/** Walks the places a query may stand, recording `semantic` nodes. */
function collect(node: unknown, path: string, replace: (v: unknown) => void, mapping: Mapping, out: SemanticNode[]): void {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
  const o = node as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length !== 1) return;
  const [type] = keys;
  const body = o[type];
  if (type === 'semantic') {
    out.push(parseSemantic(body, `${path}.semantic`, replace, mapping));
    return;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const b = body as Record<string, unknown>;
  const clauses = (key: string, at: string): void => {
    const v = b[key];
    if (Array.isArray(v)) v.forEach((q, i) => { collect(q, `${at}.${key}[${i}]`, (r) => (v[i] = r), mapping, out); });
    else if (v !== undefined) collect(v, `${at}.${key}`, (r) => (b[key] = r), mapping, out);
  };
  const at = `${path}.${type}`;
  switch (type) {
    case 'bool':
      for (const key of ['must', 'should', 'must_not', 'filter']) clauses(key, at);
      return;
    case 'dis_max':
      clauses('queries', at);
      return;
    case 'rrf':
      clauses('retrieve', at);
      clauses('queries', at);
      return;
    case 'linear': {
      const list = b.retrieve;
      if (!Array.isArray(list)) return;
      list.forEach((item: unknown, i) => {
        const itemPath = `${at}.retrieve[${i}]`;
        if (typeof item === 'object' && item !== null && 'query' in item) {
          const wrapped = item as Record<string, unknown>;
          collect(wrapped.query, `${itemPath}.query`, (r) => (wrapped.query = r), mapping, out);
        } else {
          collect(item, itemPath, (r) => (list[i] = r), mapping, out);
        }
      });
      return;
    }
    default:
      return;
  }
}

function parseSemantic(body: unknown, path: string, replace: (v: unknown) => void, mapping: Mapping): SemanticNode {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid(path, `expected {"field", "query", "k", "num_candidates"} or {"<field>": "<text>"}, got ${typeName(body)}`);
  const o = body as Record<string, unknown>;
  let field: unknown;
  let text: unknown;
  let k: unknown;
  let numCandidates: unknown;
  const keys = Object.keys(o);
  if ('field' in o || 'query' in o) {
    const allowed = ['field', 'query', 'k', 'num_candidates'];
    for (const key of keys) if (!allowed.includes(key)) throw invalid(`${path}.${key}`, `unknown key; expected one of ${allowed.join(', ')}`);
    ({ field, query: text, k, num_candidates: numCandidates } = o);
  } else if (keys.length === 1) {
    // The short form: {"<field>": "<text>"}.
    field = keys[0];
    text = o[keys[0]];
  } else {
    throw invalid(path, `expected {"field", "query", "k", "num_candidates"} or {"<field>": "<text>"}`);
  }
  if (typeof field !== 'string') throw invalid(`${path}.field`, `expected a field name, got ${typeName(field)}`);
  if (typeof text !== 'string' || text.trim() === '') throw invalid(`${path}.query`, `expected a non-empty string, got ${typeName(text)}`, { field });
  const mapped = mapping.field(field);
  if (mapped === undefined) throw invalid(path, `field "${field}" is not in the mapping`, { field });
  if (mapped.semantic === null) throw invalid(path, `field "${field}" has no semantic search (search.semantic in its mapping)`, { field });
  if (mapped.semantic.model === null) {
    throw invalid(path, `field "${field}" holds pre-embedded vectors (dim ${mapped.semantic.dim}) and has no model to embed the query: use knn with query_vector`, { field });
  }
  return { path, field, model: mapped.semantic.model, text, k, numCandidates, replace };
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}
