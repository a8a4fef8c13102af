/**
 * A real HTTP server on loopback laid out like the Hugging Face hub: `GET /api/models/<org>/<name>`
 * lists a repository's files, `GET /<org>/<name>/resolve/main/<file>` returns one. It serves the
 * files of a local model directory and counts the requests, so a test can tell a download from a
 * cache hit.
 */
import { createReadStream, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** A running hub. */
export interface HubServer {
  readonly url: string;
  /** Paths requested, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** Serves `files` of `dir` as the repository `repo` (`org/name`). */
export async function startHubServer(repo: string, dir: string, files: readonly string[]): Promise<HubServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
    requests.push(path);
    if (path === `/api/models/${repo}`) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: repo, siblings: files.map((rfilename) => ({ rfilename })) }));
      return;
    }
    const prefix = `/${repo}/resolve/main/`;
    const file = path.startsWith(prefix) ? path.slice(prefix.length) : '';
    if (!files.includes(file) || !existsSync(join(dir, file))) {
      res.writeHead(404).end('Entry not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    createReadStream(join(dir, file)).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => { resolve(); });
      }),
  };
}

/** The URL of a loopback port nothing listens on (bound, then released): connections are refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => { resolve(); }));
  return `http://127.0.0.1:${port}`;
}
