/** The process around the CLI (its streams, environment and signals), apart so that main.ts and run-mode.ts share it. */
import type { Env } from '../config/index.js';

/** The process around the CLI; tests pass their own. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream & { readonly isTTY?: boolean };
  readonly env: Env;
  /** Fires on SIGINT / SIGTERM. */
  readonly signal: AbortSignal;
}
