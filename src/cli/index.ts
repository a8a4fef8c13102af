/**
 * @module cli
 * The `yarrow` executable (SPEC §1): argv parsing, the exit-code table, logging set-up, and the
 * modes in `modes/`, which are the only place where config, storage, ingest and the engine are
 * wired together. Nothing else may import from here.
 */
export { runCli } from './main.js';
export type { CliIo } from './cli-io.js';
export { ExitCode, exitCodeOf } from './exit-codes.js';
export { buildProgram, DEFAULT_HOST, DEFAULT_PORT } from './program.js';
export type { Invocation, ProgramOutput } from './program.js';
export { UsageError, NotAvailableError, InterruptedError } from './usage-error.js';
