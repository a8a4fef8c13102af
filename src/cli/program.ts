/**
 * The command line of SPEC §1 in commander: every mode, option, default and help text. Parsing only
 * picks a mode and validates its options; the entry point runs it. `-h` means `--help` except in
 * the HTTP modes, where it is the host.
 */
import { Command, Option } from 'commander';
import { LOG_LEVELS } from './log-levels.js';
import type { LogLevel } from './log-levels.js';
import type { IndexFileOptions } from './modes/index-file-mode.js';
import type { IndexKafkaOptions } from './modes/index-kafka-mode.js';
import type { ServerOptions } from './modes/mode-context.js';
import { parseBrokers, parseKeyValues, parseNonEmpty, parseOffset, parsePort, parseSegmentCount } from './option-parsers.js';

/** The mode the command line selected, with its parsed options. */
export type Invocation =
  | { readonly mode: 'index file'; readonly options: IndexFileOptions }
  | { readonly mode: 'index kafka'; readonly options: IndexKafkaOptions }
  | { readonly mode: 'api' | 'index api' | 'standalone' | 'search'; readonly options: ServerOptions };

/** Where commander writes help and errors. */
export interface ProgramOutput {
  readonly writeOut: (text: string) => void;
  readonly writeErr: (text: string) => void;
}

/** Default of `-h, --host` (SPEC §1.1). */
export const DEFAULT_HOST = '0.0.0.0';
/** Default of `-p, --port` (SPEC §1.1). */
export const DEFAULT_PORT = 8080;

/**
 * Builds the program; `onInvoke` receives the selected mode. Commander errors are thrown as
 * CommanderError (exitOverride) after one line has been written through `output.writeErr`.
 */
export function buildProgram(version: string, output: ProgramOutput, onInvoke: (invocation: Invocation) => void): Command {
  const program = new Command('yarrow')
    .description('Yarrow: a search engine in one process. Index JSONL from files, Kafka or HTTP, and search it.')
    .usage('<mode> [options]')
    .version(version, '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .showSuggestionAfterError(true)
    .exitOverride()
    .addHelpText('after', "\nRun 'yarrow <mode> --help' for the options of a mode, e.g. 'yarrow index file --help'.");
  configureOutput(program, output);

  const index = program.command('index').description('indexer only: pull documents into an index').usage('<file|kafka|api> [options]').helpCommand(false);
  configureOutput(index, output);

  const file = index
    .command('file')
    .description('pull JSONL (plain, .gz or .zst) from a path, directory, http(s):// URL or s3:// prefix into an index, commit, and exit')
    .addOption(configOption().makeOptionMandatory())
    .addOption(new Option('-i, --index <name>', 'index to write to (a name under schema: in the config)').argParser(parseNonEmpty).makeOptionMandatory())
    .addOption(new Option('-u, --url <url>', 'source: a path, file:///..., http(s)://... or s3://bucket/prefix').argParser(parseNonEmpty).makeOptionMandatory())
    .addOption(new Option('-r, --recursive', 'list directories recursively').default(false))
    .addOption(new Option('-e, --endpoint <url>', 'custom object-storage endpoint (S3-compatible), e.g. http://127.0.0.1:9000').argParser(parseNonEmpty))
    .addOption(new Option('--force_merge <segments>', 'after indexing, merge the index down to this many segments (and commit)').argParser(parseSegmentCount))
    .addOption(logLevelOption())
    .action((opts: { config: string; index: string; url: string; recursive: boolean; endpoint?: string; force_merge?: number; loglevel: LogLevel }) => {
      const { force_merge: forceMerge, ...rest } = opts;
      onInvoke({ mode: 'index file', options: { ...rest, endpoint: opts.endpoint, ...(forceMerge === undefined ? {} : { forceMerge }) } });
    });
  configureOutput(file, output);

  const kafka = index
    .command('kafka')
    .description('pull documents from a Kafka topic into an index, continuously')
    .addOption(new Option('-b, --brokers <list>', 'comma-separated broker endpoints (host:port)').argParser(parseBrokers).makeOptionMandatory())
    .addOption(new Option('-t, --topic <name>', 'topic name').argParser(parseNonEmpty).makeOptionMandatory())
    .addOption(new Option('-i, --index <name>', 'index to write to (a name under schema: in the config)').argParser(parseNonEmpty).makeOptionMandatory())
    .addOption(new Option('-g, --group_id <id>', 'consumer group id').argParser(parseNonEmpty).default('yarrow'))
    .addOption(new Option('-o, --offset <position>', 'initial position: earliest, latest, ts=<epoch ms or s>, last=<N> messages, last=<N>s|m|h|d (default: the group\'s committed offsets)').argParser((v: string) => parseOffset(v)))
    .addOption(new Option('--options <list>', 'comma-separated key=value options for the Kafka client').argParser(parseKeyValues))
    .addOption(configOption().makeOptionMandatory())
    .addOption(logLevelOption())
    .action((opts: Omit<IndexKafkaOptions, 'options'> & { options?: Record<string, string> }) => {
      onInvoke({ mode: 'index kafka', options: { ...opts, offset: opts.offset, options: opts.options ?? {} } });
    });
  configureOutput(kafka, output);

  addServerMode(index, output, 'api', 'indexer only, over HTTP: the push endpoints (no search)', true, (options) => {
    onInvoke({ mode: 'index api', options });
  });
  addServerMode(program, output, 'api', 'indexer only, over HTTP: the push endpoints (no search); same as `index api`', true, (options) => {
    onInvoke({ mode: 'api', options });
  });
  addServerMode(program, output, 'standalone', 'searcher and indexer in one process: push and search endpoints, web UI', false, (options) => {
    onInvoke({ mode: 'standalone', options });
  });
  addServerMode(program, output, 'search', 'searcher only: serves an index built before; never writes', true, (options) => {
    onInvoke({ mode: 'search', options });
  });
  return program;
}

function addServerMode(parent: Command, output: ProgramOutput, name: string, description: string, configRequired: boolean, run: (options: ServerOptions) => void): void {
  const config = configOption();
  if (configRequired) config.makeOptionMandatory();
  const cmd = parent
    .command(name)
    .description(description)
    .helpOption('--help', 'show help')
    .addOption(config)
    .addOption(new Option('-h, --host <host>', 'interface to bind').argParser(parseNonEmpty).default(DEFAULT_HOST))
    .addOption(new Option('-p, --port <port>', 'port to bind').argParser(parsePort).default(DEFAULT_PORT))
    .addOption(logLevelOption())
    .action((opts: { config?: string; host: string; port: number; loglevel: LogLevel }) => {
      const explicit = (['host', 'port', 'loglevel'] as const).filter((key) => cmd.getOptionValueSource(key) === 'cli');
      run({ config: opts.config, host: opts.host, port: opts.port, loglevel: opts.loglevel, explicit });
    });
  configureOutput(cmd, output);
}

function configOption(): Option {
  return new Option('-c, --config <path>', 'config file (YAML)').argParser(parseNonEmpty);
}

function logLevelOption(): Option {
  return new Option('-l, --loglevel <level>', 'log level').choices(LOG_LEVELS).default('info');
}

/** Errors become one line that ends with where to get help. */
function configureOutput(cmd: Command, output: ProgramOutput): void {
  cmd.configureOutput({
    writeOut: output.writeOut,
    writeErr: output.writeErr,
    outputError: (text, write) => {
      const line = text.split('\n').map((s) => s.trim()).filter((s) => s !== '').join(' ');
      write(`${line} (see '${commandPath(cmd)} --help')\n`);
    },
  });
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c !== null; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
