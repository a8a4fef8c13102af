/**
 * The CLI's entry: parse argv and pick the mode; run-mode.ts runs it. Only commander is loaded here,
 * so `--help`, `--version` and usage errors cost little more than node's own start.
 */
import { readFileSync } from 'node:fs';
import { CommanderError } from 'commander';
import type { CliIo } from './cli-io.js';
import { ExitCode } from './exit-codes.js';
import { buildProgram } from './program.js';
import type { Invocation } from './program.js';
import { markStartup } from './startup-trace.js';

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
  markStartup('argv parsed');
  // The modes, and all they import, are one module apart: the bundled CLI loads it as one CommonJS
  // file under V8's code cache (scripts/build-cli.ts, issue 17).
  return (await import('./run-mode.js')).runMode(chosen, io);
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
