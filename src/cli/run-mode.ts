/**
 * Runs the mode argv chose: sets up logging, loads that mode's module, and turns whatever ended it
 * into an exit code and at most one line on stderr (a stack trace too with `--loglevel debug`).
 *
 * Everything a mode needs is reached from here and nothing from here is needed by `--help`, so the
 * bundled CLI (scripts/build-cli.ts) builds this module and all it imports into one CommonJS file
 * that loads under V8's code cache; the errors a mode throws are therefore checked (`instanceof`)
 * here, in the same copy of the code that threw them.
 */
// The leaf module, not the config barrel (yaml and zod load with the mode that parses a config).
import { ConfigError } from '../config/config-error.js';
import type { CliIo } from './cli-io.js';
import { exitCodeOf, errorCodeOf } from './exit-codes.js';
import type { ModeContext } from './modes/mode-context.js';
import type { Invocation } from './program.js';
import { markStartup } from './startup-trace.js';
import { applyVectorCacheEnv } from './vector-cache-env.js';

/**
 * Loads the chosen mode, and only it, then runs it. Each mode's module is imported here and not at
 * the top, so `--help` and a usage error load commander alone, `index file` never loads the HTTP
 * server and only `index kafka` loads the Kafka client (test/cli/startup.test.ts holds this).
 */
export async function runMode(invocation: Invocation, io: CliIo): Promise<number> {
  markStartup('modes loaded');
  const level = invocation.options.loglevel;
  const { createLogger, LogSink } = await import('./cli-logger.js');
  const sink = new LogSink(io.stderr);
  const log = await createLogger(level, sink, io.env.YARROW_LOG_FORMAT === 'json');
  const ctx: ModeContext = { stdout: io.stdout, stderr: io.stderr, env: io.env, signal: io.signal, log, sink };
  markStartup('logger created');
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
