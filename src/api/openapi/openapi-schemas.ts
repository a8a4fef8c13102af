/**
 * `components.schemas` of `/openapi.json`: the error body, index figures, the search request with
 * its query DSL (lexical, semantic, knn, rrf), filters and aggregations, and the responses of the
 * legacy routes and of Nixiesearch 0.8's `/v1` routes. Shapes are open (extra keys allowed in
 * responses) so that adding a field to an answer does not break clients validating against them.
 */
import type { OpenApiObject } from './openapi-parts.js';
import { ref } from './openapi-parts.js';

const obj = (properties: OpenApiObject, required: readonly string[] = []): OpenApiObject => ({ type: 'object', properties, ...(required.length > 0 ? { required } : {}) });

/** One query type under its key, e.g. `{"match": {...}}`. */
const queryOf = (key: string, body: OpenApiObject, description: string): OpenApiObject => ({ type: 'object', description, required: [key], properties: { [key]: body }, additionalProperties: false });

const fieldMap = (value: OpenApiObject): OpenApiObject => ({ type: 'object', minProperties: 1, additionalProperties: value });

const query: OpenApiObject = {
  description: 'Exactly one query type. Absent: match_all.',
  oneOf: [
    queryOf('match_all', obj({ boost: { type: 'number' } }), 'every document'),
    queryOf('match', fieldMap({ oneOf: [{ type: 'string' }, obj({ query: { type: 'string' }, operator: { enum: ['or', 'and'] }, boost: { type: 'number' } }, ['query'])] }), 'analysed terms of one field'),
    queryOf('match_phrase', fieldMap({ oneOf: [{ type: 'string' }, obj({ query: { type: 'string' }, slop: { type: 'integer' } }, ['query'])] }), 'terms in order'),
    queryOf('multi_match', obj({ query: { type: 'string' }, fields: { type: 'array', items: { type: 'string', description: 'a field, a wildcard, or field^boost' } }, type: { enum: ['best_fields', 'most_fields', 'cross_fields', 'combined_fields'] }, operator: { enum: ['or', 'and'] }, tie_breaker: { type: 'number' } }, ['query']), 'several fields'),
    queryOf('bool', obj({ must: { type: 'array', items: ref('Query') }, should: { type: 'array', items: ref('Query') }, must_not: { type: 'array', items: ref('Query') }, filter: { type: 'array', items: ref('Query') }, minimum_should_match: { type: 'integer' } }), 'boolean combination'),
    queryOf('dis_max', obj({ queries: { type: 'array', items: ref('Query') }, tie_breaker: { type: 'number' } }, ['queries']), 'best of several queries'),
    queryOf('prefix', fieldMap({ oneOf: [{ type: 'string' }, obj({ value: { type: 'string' }, boost: { type: 'number' } }, ['value'])] }), 'terms starting with a prefix'),
    queryOf('fuzzy', fieldMap({ oneOf: [{ type: 'string' }, obj({ value: { type: 'string' }, fuzziness: { oneOf: [{ type: 'integer' }, { const: 'AUTO' }] }, max_expansions: { type: 'integer' } }, ['value'])] }), 'terms within an edit distance'),
    queryOf('semantic', { oneOf: [obj({ field: { type: 'string' }, query: { type: 'string' }, k: { type: 'integer' }, num_candidates: { type: 'integer' } }, ['field', 'query']), fieldMap({ type: 'string' })] }, 'embeds the query text with the field\'s model, then kNN'),
    queryOf('knn', obj({ field: { type: 'string' }, query_vector: { type: 'array', items: { type: 'number' } }, k: { type: 'integer' }, num_candidates: { type: 'integer' } }, ['field', 'query_vector']), 'nearest neighbours of a vector'),
    queryOf('rrf', obj({ retrieve: { type: 'array', items: ref('Query') }, k: { type: 'number' }, rank_window_size: { type: 'integer' } }, ['retrieve']), 'reciprocal rank fusion of several retrievers'),
    queryOf(
      'linear',
      obj({
        retrieve: { type: 'array', items: { oneOf: [ref('Query'), obj({ query: ref('Query'), weight: { type: 'number' }, normalizer: { enum: ['minmax', 'none'] } }, ['query'])] } },
        rank_window_size: { type: 'integer' },
      }, ['retrieve']),
      'weighted sum of min-max-normalised retriever scores (like Elasticsearch\'s linear retriever)',
    ),
  ],
};

const filter: OpenApiObject = {
  description: 'term, range, and/or (lists), not (a filter or a list)',
  type: 'object',
  minProperties: 1,
  maxProperties: 1,
  properties: {
    term: fieldMap({ oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: { type: ['string', 'number'] } }] }),
    range: fieldMap(obj({ gt: { type: 'number' }, gte: { type: 'number' }, lt: { type: 'number' }, lte: { type: 'number' } })),
    and: { type: 'array', items: ref('Filter') },
    or: { type: 'array', items: ref('Filter') },
    not: { oneOf: [ref('Filter'), { type: 'array', items: ref('Filter') }] },
  },
  additionalProperties: false,
};

const aggregation: OpenApiObject = {
  oneOf: [
    queryOf('term', obj({ field: { type: 'string' }, size: { oneOf: [{ type: 'integer', minimum: 1 }, { const: 'all' }] } }, ['field']), 'most frequent values'),
    queryOf('range', obj({ field: { type: 'string' }, ranges: { type: 'array', items: obj({ gt: { type: 'number' }, gte: { type: 'number' }, lt: { type: 'number' }, lte: { type: 'number' } }) } }, ['field', 'ranges']), 'counts per range'),
  ],
};

const sortKey: OpenApiObject = {
  oneOf: [
    { type: 'string', description: '_score, _doc or a field name' },
    fieldMap(obj({ order: { enum: ['asc', 'desc', 'default'] }, missing: { enum: ['first', 'last'] } })),
  ],
};

const searchRequest: OpenApiObject = {
  type: 'object',
  description: 'Unknown keys are a 400 naming the key.',
  properties: {
    query: ref('Query'),
    filters: obj({ include: ref('Filter'), exclude: ref('Filter') }),
    aggs: { type: 'object', additionalProperties: aggregation },
    sort: { type: 'array', items: sortKey },
    size: { type: 'integer', minimum: 0 },
    from: { type: 'integer', minimum: 0 },
    fields: { type: 'array', items: { type: 'string', description: 'a stored field or a wildcard' } },
    track_total_hits: { type: ['boolean', 'integer'] },
    search_after: { type: 'array' },
    q: { type: 'string', description: 'simple query syntax over every text field' },
    highlight: obj({ fields: { type: 'array', items: { type: 'string' } }, fragment_size: { type: 'integer' }, number_of_fragments: { type: 'integer' }, pre_tag: { type: 'string' }, post_tag: { type: 'string' } }),
  },
  additionalProperties: false,
};

// `_score` is null when the hits are sorted by something else; `_sort` then holds the sort values.
const hit = { type: 'object', required: ['_id'], properties: { _id: { type: 'string' }, _score: { type: ['number', 'null'] }, _sort: { type: 'array' } } };

const aggResults: OpenApiObject = { type: 'object', additionalProperties: obj({ buckets: { type: 'array', items: { type: 'object' } } }) };

/** Nixiesearch 0.8's answer to a write on `/v1`: `took` in seconds. */
const v1Status = (extra: OpenApiObject = {}): OpenApiObject => obj({ status: { const: 'ok' }, took: { type: 'number', description: 'seconds' }, ...extra }, ['status']);

/** The schemas every part of the document refers to. */
export const serviceSchemas: OpenApiObject = {
  ServiceError: obj({
    error: obj({
      type: { type: 'string' }, reason: { type: 'string' }, line: { type: 'integer' }, ordinal: { type: 'integer' }, offset: { type: 'integer' },
      field: { type: 'string' }, expected: { type: 'string' }, actual: { type: 'string' },
    }, ['type', 'reason']),
  }, ['error']),
  Document: { type: 'object', description: 'a document: fields of the mapping, `_id` optional', properties: { _id: { type: ['string', 'integer'] } } },
  IndexFigures: obj({ name: { type: 'string' }, docs: { type: 'integer' }, segments: { type: 'integer' }, seq: { type: 'integer' }, size: { type: 'integer' }, buffered_docs: { type: 'integer' }, mapping: { type: 'object' } }),
  Health: obj({ status: { enum: ['ok', 'degraded'] }, indexes: { type: 'object', additionalProperties: { type: 'object' } } }, ['status']),
  Query: query,
  Filter: filter,
  SearchRequest: searchRequest,
  SearchResponse: obj({ took: { type: 'integer', description: 'milliseconds' }, total: { type: 'integer' }, total_relation: { enum: ['eq', 'gte'] }, hits: { type: 'array', items: hit }, aggs: aggResults }, ['hits']),
  V1SearchResponse: obj({ took: { type: ['number', 'object'], description: 'seconds, or Nixiesearch 0.8\'s per-phase timings' }, hits: { type: 'array', items: hit }, aggs: aggResults, ts: { type: 'integer', description: 'epoch milliseconds' } }, ['hits']),
  SuggestRequest: {
    type: 'object',
    required: ['query'],
    properties: { query: { type: 'string' }, fields: { type: 'array', items: { type: 'string' } }, count: { type: 'integer', minimum: 1 }, rerank: obj({ rrf: obj({ depth: { type: 'integer' }, scale: { type: 'number' } }) }) },
    additionalProperties: false,
  },
  SuggestResponse: obj({ suggestions: { type: 'array', items: obj({ text: { type: 'string' }, score: { type: 'number' } }, ['text', 'score']) }, took: { type: 'number' } }, ['suggestions']),
  DeleteRequest: { type: 'object', required: ['filters'], description: 'A request without filters is a 400 (Nixiesearch 0.8 deletes every document; Yarrow does not).', properties: { filters: obj({ include: ref('Filter'), exclude: ref('Filter') }) }, additionalProperties: false },
  MergeRequest: { type: 'object', properties: { segments: { type: 'integer', minimum: 1, description: 'merge down to at most this many segments (default 1)' } }, additionalProperties: false },
  IndexResult: obj({ result: { const: 'created' }, took: { type: 'integer', description: 'milliseconds' }, docs: { type: 'integer' }, bytes: { type: 'integer' } }, ['result', 'took']),
  WriteResult: obj({ took: { type: 'number' }, deleted: { type: 'integer' }, segments: { type: 'integer' } }),
  V1Status: v1Status(),
  V1IndexResult: v1Status({ docs: { type: 'integer' } }),
  V1DeleteResult: v1Status({ deleted: { type: 'integer' } }),
  IndexStats: obj({ name: { type: 'string' }, docs: { type: 'integer' }, segments: { type: ['integer', 'array'], description: 'a count (legacy) or a list' }, segment_list: { type: 'array', items: { type: 'object' } } }),
  Mapping: { type: 'object', description: 'the index mapping: fields with type and options', properties: { name: { type: 'string' }, fields: { type: 'object' }, mapping: { type: 'object' } } },
  IndexList: obj({ indexes: { type: 'array', items: { oneOf: [{ type: 'string' }, obj({ name: { type: 'string' }, aliases: { type: 'array', items: { type: 'string' } } }, ['name'])] } }, aliases: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } }, ['indexes']),
};
