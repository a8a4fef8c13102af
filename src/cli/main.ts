/**
 * The CLI's entry: parse argv, pick the mode, set up logging, run it, and turn whatever ended it
 * into an exit code and at most one line on stderr (a stack trace too with `--loglevel debug`).
 */
import { readFileSync } from 'node:fs';
import { CommanderError } from 'commander';
// The leaf module, not the config barrel: `--help` must not load yaml and zod (test/e2e/cli/startup.test.ts).
import { ConfigError } from '../config/config-error.js';
import type { Env } from '../config/index.js';
import { ExitCode, exitCodeOf, errorCodeOf } from './exit-codes.js';
import type { ModeContext } from './modes/mode-context.js';
import { buildProgram } from './program.js';
import type { Invocation } from './program.js';
import { applyVectorCacheEnv } from './vector-cache-env.js';

/** The process around the CLI; tests pass their own. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream & { readonly isTTY?: boolean };
  readonly env: Env;
  /** Fires on SIGINT / SIGTERM. */
  readonly signal: AbortSignal;
}

/** Runs `yarrow <argv...>`; resolves to the process exit code and never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let invocation: Invocation | null = null;
  const program = buildProgram(packageVersion(), { writeOut: (s) => { io.stdout.write(s); }, writeErr: (s) => { io.stderr.write(s); } }, (i) => {
    invocation = i;
  });
  if (argv.length === 0) {
    io.stderr.write(`No command given. If unsure, try 'yarrow standalone'\n\n${program.helpInformation()}`);
    return ExitCode.failure;
  }
  if (argv.length === 1 && argv[0] === 'index') {
    const index = program.commands.find((c) => c.name() === 'index');
    io.stderr.write(`No index source given: use 'yarrow index file', 'yarrow index kafka' or 'yarrow index api'\n\n${index?.helpInformation() ?? ''}`);
    return ExitCode.failure;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return ExitCode.ok;
    // 'commander.help': a command group without its subcommand; the help went to stderr.
    return e.code === 'commander.help' ? ExitCode.failure : ExitCode.usage;
  }
  const chosen = invocation as Invocation | null;
  if (chosen === null) return ExitCode.failure;
  return runMode(chosen, io);
}

/**
 * Loads the chosen mode, and only it, then runs it. Each mode's module is imported here and not at
 * the top, so `--help` and a usage error load commander alone, `index file` never loads the HTTP
 * server and only `index kafka` loads the Kafka client (test/cli/startup.test.ts holds this).
 */
async function runMode(invocation: Invocation, io: CliIo): Promise<number> {
  const level = invocation.options.loglevel;
  const { createPino, LogSink } = await import('./cli-logger.js');
  const sink = new LogSink(io.stderr, io.env.YARROW_LOG_FORMAT === 'json');
  const log = createPino(level, sink);
  const ctx: ModeContext = { stdout: io.stdout, stderr: io.stderr, env: io.env, signal: io.signal, log, sink };
  try {
    await applyVectorCacheEnv(io.env);
    switch (invocation.mode) {
      case 'index file':
        return await (await import('./modes/index-file-mode.js')).runIndexFile(invocation.options, ctx);
      case 'index kafka':
        return await (await import('./modes/index-kafka-mode.js')).runIndexKafka(invocation.options, ctx);
      case 'api':
      case 'index api':
        return await (await import('./modes/api-mode.js')).runApi(invocation.options, ctx);
      case 'standalone':
        return await (await import('./modes/standalone-mode.js')).runStandalone(invocation.options, ctx);
      case 'search':
        return await (await import('./modes/search-mode.js')).runSearch(invocation.options, ctx);
    }
  } catch (e) {
    sink.intercept(null);
    const known = errorCodeOf(e) !== undefined;
    const message = e instanceof Error ? e.message : String(e);
    // A config file with several problems reports each on its own line; other errors are one line.
    const lines = e instanceof ConfigError ? message.split('\n') : [message.split('\n')[0]];
    for (const line of lines) io.stderr.write(`error: ${line}\n`);
    if (level === 'debug' && e instanceof Error && e.stack !== undefined) io.stderr.write(`${e.stack}\n`);
    else if (!known) io.stderr.write('(this looks like a bug; run with --loglevel debug for the stack trace)\n');
    return exitCodeOf(e);
  }
}

function packageVersion(): string {
  try {
    // Both src/cli/ and dist/cli/ sit two levels under the package root.
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
