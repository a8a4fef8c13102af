/**
 * A real S3-compatible server for the tests: moto (PyPI `moto[server]`, installed by .ci/run),
 * started on a free loopback port and stopped by pid.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A running moto server. */
export interface MotoServer {
  readonly endpoint: string;
  stop(): Promise<void>;
}

const STARTUP_LIMIT_MS = 60_000;

/**
 * Starts `moto_server -H 127.0.0.1 -p <free port>` and resolves once it listens.
 * @throws Error with install instructions when moto_server is not on the PATH.
 */
export async function startMoto(): Promise<MotoServer> {
  const port = await freePort();
  const child = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`moto_server did not start within ${STARTUP_LIMIT_MS} ms; it printed: ${output}`));
    }, STARTUP_LIMIT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes(`Running on http://127.0.0.1:${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        e.code === 'ENOENT'
          ? new Error("moto_server is not installed: run `pip install 'moto[server]'` (.ci/run does) so the S3 tests have a server")
          : e,
      );
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`moto_server exited with code ${code} before listening; it printed: ${output}`));
    });
  });
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => stop(child) };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(child.pid!, 'SIGTERM');
  await exited;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => { resolve(port); });
    });
  });
}
