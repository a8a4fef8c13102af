/**
 * The page's client for the HTTP API: the index list, one index's mapping, and searches. Every
 * call either resolves to the parsed JSON or throws an {@link ApiError} with a message a person can
 * read (the server's `error.reason`, or why there was no answer), which the page shows in place of
 * the results.
 *
 * The index list and mappings come from `GET /_indexes` and `GET /<index>`. Nixiesearch 0.8's
 * `GET /v1/index` and `GET /v1/index/{idx}` serve the same purpose: switching to them is a change
 * of {@link ROUTES} (and of {@link listIndexes}'s shape reading, if theirs differs).
 */
import type { FieldJson } from './index-schema.js';
import type { SearchBody } from './search-request.js';

/** The paths this client reads; the one place to change when the API moves. */
export const ROUTES = {
  indexes: (): string => '/_indexes',
  index: (name: string): string => `/${encodeURIComponent(name)}`,
  search: (name: string): string => `/${encodeURIComponent(name)}/_search`,
} as const;

/** An answer other than 2xx, or no answer at all. */
export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    /** The server's `error.type`, e.g. `invalid_query`. */
    readonly type: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** One hit as the search API returns it. */
export interface Hit {
  readonly _id: string;
  /** null when the search sorts by a field and does not score. */
  readonly _score: number | null;
  readonly _sort?: unknown[];
  readonly _highlight?: Readonly<Record<string, readonly string[]>>;
  readonly [field: string]: unknown;
}

export interface Bucket {
  readonly term?: string | number | boolean;
  readonly gt?: number;
  readonly gte?: number;
  readonly lt?: number;
  readonly lte?: number;
  readonly count: number;
}

export interface SearchResult {
  readonly took: number;
  readonly total: number;
  readonly total_relation: 'eq' | 'gte';
  readonly hits: readonly Hit[];
  readonly aggs?: Readonly<Record<string, { readonly buckets: readonly Bucket[] }>>;
}

/** A raw answer: status, status text and body text. */
export interface RawResponse {
  readonly status: number;
  readonly statusText: string;
  readonly text: string;
}

/** How requests travel: `fetch`, or synchronous XHR for the first render (see {@link syncTransport}). */
export type Transport = (path: string, method: 'GET' | 'POST', body: string | undefined, signal?: AbortSignal) => Promise<RawResponse>;

/** The normal transport. */
export const fetchTransport: Transport = async (path, method, body, signal) => {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
    ...(signal === undefined ? {} : { signal }),
  });
  return { status: res.status, statusText: res.statusText, text: await res.text() };
};

/**
 * Synchronous XHR, used only for the page's first render: the document's load event then comes
 * after the hits are on the page, so `chromium --dump-dom <url>` (and any crawler or link preview
 * that reads the DOM at load) sees the search the URL names, not a spinner. The requests are on
 * loopback or a LAN and the page shows nothing useful before them anyway.
 */
export const syncTransport: Transport = (path, method, body) => {
  try {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path, false);
    xhr.setRequestHeader('accept', 'application/json');
    if (body !== undefined) xhr.setRequestHeader('content-type', 'application/json');
    xhr.send(body ?? null);
    return Promise.resolve({ status: xhr.status, statusText: xhr.statusText, text: xhr.responseText });
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)));
  }
};

/** Calls the API over a {@link Transport}. */
export class ApiClient {
  constructor(private readonly transport: Transport) {}

  private async call<T>(path: string, method: 'GET' | 'POST' = 'GET', body?: string, signal?: AbortSignal): Promise<T> {
    let res: RawResponse;
    try {
      res = await this.transport(path, method, body, signal);
    } catch (e) {
      // A search overtaken by a newer one is aborted on purpose: not an error to show.
      if ((e as Error).name === 'AbortError') throw e;
      throw new ApiError(`The server could not be reached (${(e as Error).message}). Is yarrow still running?`, 0, 'network');
    }
    let json: unknown = undefined;
    try {
      json = res.text === '' ? undefined : JSON.parse(res.text);
    } catch {
      // Not JSON (a proxy's error page, say): the status line is all there is to report.
    }
    if (res.status < 200 || res.status > 299) {
      const err = (json as { error?: { type?: unknown; reason?: unknown } } | undefined)?.error;
      const reason = typeof err?.reason === 'string' ? err.reason : `${res.status} ${res.statusText}`.trim();
      throw new ApiError(reason, res.status, typeof err?.type === 'string' ? err.type : 'http');
    }
    if (json === undefined) throw new ApiError(`${path} answered ${res.status} without a JSON body`, res.status, 'bad_response');
    return json as T;
  }

  /** The names of the indexes the server serves. */
  async listIndexes(): Promise<string[]> {
    const r = await this.call<{ indexes: { name: string }[] }>(ROUTES.indexes());
    return r.indexes.map((i) => i.name);
  }

  /** One index's mapping fields. */
  async getMappingFields(index: string): Promise<FieldJson[]> {
    const r = await this.call<{ mapping: { fields: FieldJson[] } }>(ROUTES.index(index));
    return r.mapping.fields;
  }

  /** Runs one search. */
  search(index: string, body: SearchBody, signal?: AbortSignal): Promise<SearchResult> {
    return this.call<SearchResult>(ROUTES.search(index), 'POST', JSON.stringify(body), signal);
  }
}
