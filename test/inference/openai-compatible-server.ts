/**
 * A real HTTP server on loopback speaking the OpenAI embeddings API (`POST /v1/embeddings`), backed
 * by a real local model: what Ollama, vLLM or llama.cpp's server look like to Yarrow. Faults the
 * real thing can produce but not on demand are injected by options: failing the first requests
 * with 503, never answering (a hung server).
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EmbeddingModel } from '../../src/inference/index.js';

/** What the server saw. */
export interface SeenRequest {
  readonly headers: IncomingHttpHeaders;
  readonly body: { model?: string; input?: string[]; dimensions?: number };
}

/** Fault injection. */
export interface ServerFaults {
  /** Answer this many requests with 503 before serving. */
  failFirst?: number;
  /** Accept requests and never answer them. */
  hang?: boolean;
}

/** A running server. */
export interface OpenAiCompatibleServer {
  readonly url: string;
  readonly requests: SeenRequest[];
  readonly faults: ServerFaults;
  close(): Promise<void>;
}

/** Starts a server answering with `model`'s raw vectors. */
export async function startOpenAiCompatibleServer(model: EmbeddingModel, faults: ServerFaults = {}): Promise<OpenAiCompatibleServer> {
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SeenRequest['body'];
        requests.push({ headers: req.headers, body });
        if (faults.hang === true) return;
        if ((faults.failFirst ?? 0) > 0) {
          faults.failFirst = (faults.failFirst ?? 0) - 1;
          res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"model is loading"}}');
          return;
        }
        if (req.url !== '/v1/embeddings' || !Array.isArray(body.input)) {
          res.writeHead(404).end();
          return;
        }
        const vectors = await model.embed(body.input, 'raw');
        const data = vectors.map((v, index) => ({ object: 'embedding', index, embedding: Array.from(v) }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 0, total_tokens: 0 } }));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    faults,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => { resolve(); });
      }),
  };
}
