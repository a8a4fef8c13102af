/**
 * One index in a fresh temporary directory, served by a real server on 127.0.0.1 (any free port):
 * the setup the route tests share. `close` stops the server, closes the index and deletes the
 * directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer, WritableIndex } from '../../src/api/index.js';
import type { ServedIndex, ServerDeps } from '../../src/api/index.js';
import { Index, silentLogger } from '../../src/engine/index.js';
import type { IndexOpenOptions } from '../../src/engine/index.js';
import { LocalDirectory } from '../../src/storage/index.js';

/** A served index and how to reach and stop it. */
export interface LoopbackIndex {
  readonly base: string;
  readonly index: Index;
  readonly close: () => Promise<void>;
}

/** Opens index `name` with `options` in a new temp dir and serves it (`deps` override the server's). */
export async function serveLoopbackIndex(name: string, options: IndexOpenOptions, deps: Partial<ServerDeps> = {}): Promise<LoopbackIndex> {
  const path = await mkdtemp(join(tmpdir(), `yarrow-${name}-http-`));
  const index = await Index.open(await LocalDirectory.open(path), { name, refreshIntervalMs: 0, ...options });
  const indexes = new Map<string, ServedIndex>([[name, new WritableIndex(name, index, path)]]);
  const { app } = buildServer({ role: 'standalone', indexes, log: silentLogger, version: 'test', ...deps });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    index,
    close: async () => {
      await app.close();
      await index.close();
      await rm(path, { recursive: true, force: true });
    },
  };
}
