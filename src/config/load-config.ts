/**
 * Loading the config file: read, parse YAML (keeping positions), substitute `${VAR}` in scalar
 * values, validate with the zod schema and the engine's mapping parser, and report the first
 * problem as one {@link ConfigError} naming file, line and path.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument, parse as parseYaml, visit } from 'yaml';
import type { Document } from 'yaml';
import { parseMapping, YarrowError } from '../engine/index.js';
import type { Mapping } from '../engine/index.js';
import { ConfigError } from './config-error.js';
import { configSchema } from './config-schema.js';
import type { Config } from './config-schema.js';
import { substituteEnv, SubstitutionError } from './env-substitution.js';
import { positionOf } from './yaml-locations.js';
import { describeIssue } from './zod-issues.js';

/** A validated config and the parsed mapping of each of its indexes. */
export interface LoadedConfig {
  /** The file as the user named it. */
  readonly file: string;
  readonly config: Config;
  /** Index name -> its parsed mapping, in config order. */
  readonly mappings: ReadonlyMap<string, Mapping>;
}

/** Environment variables as `process.env` holds them. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads and validates the config file at `file`.
 * @throws ConfigError when the file cannot be read or is not a valid config.
 */
export async function loadConfig(file: string, env: Env = process.env): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read config file ${file}: ${describeReadError(e)}`, { file }, { cause: e });
  }
  return parseConfig(text, file, env);
}

/**
 * Validates config text; `file` only names the source in errors.
 * @throws ConfigError naming the file, line and dotted path of the first problem.
 */
export function parseConfig(text: string, file: string, env: Env = process.env): LoadedConfig {
  const lineCounter = new LineCounter();
  const { masked, refs, token } = maskReferences(text);
  const doc = parseDocument(masked, { lineCounter, prettyErrors: false });
  const syntax = doc.errors[0] as (typeof doc.errors)[number] | undefined;
  if (syntax !== undefined) {
    const { line, col } = lineCounter.linePos(syntax.pos[0]);
    const reason = syntax.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw configError(file, undefined, { line, column: col }, `invalid YAML: ${reason}`);
  }
  substituteScalars(doc, lineCounter, file, env, refs, token);
  const raw: unknown = doc.toJS() ?? {};
  const result = configSchema.safeParse(raw, { reportInput: true });
  if (!result.success) {
    const { path, reason } = describeIssue(result.error.issues[0], configSchema);
    throw configError(file, path, positionOf(doc, lineCounter, path), reason);
  }
  const config = result.data;
  const mappings = new Map<string, Mapping>();
  for (const [name, entry] of Object.entries(config.schema)) {
    try {
      mappings.set(name, parseMapping({ fields: entry.fields }, `schema.${name}`));
    } catch (e) {
      if (!(e instanceof YarrowError)) throw e;
      const path = typeof e.details.field === 'string' ? e.details.field : `schema.${name}`;
      const reason = e.message.startsWith(`${path}: `) ? e.message.slice(path.length + 2) : e.message;
      throw configError(file, path, positionOf(doc, lineCounter, path), reason);
    }
  }
  return { file, config, mappings };
}

/**
 * Substitution happens after parsing so that a variable can never inject YAML structure and a
 * reference inside a comment is inert; but `{ path: ${DIR} }` must still parse, so every reference
 * is first swapped for an inert placeholder word (same line, so line numbers hold).
 */
function maskReferences(text: string): { masked: string; refs: string[]; token: RegExp } {
  const nonce = randomBytes(4).toString('hex');
  const refs: string[] = [];
  const masked = text.replace(/\$\$\{|\$\{[^}\n]*\}/g, (m) => {
    if (m === '$${') return m;
    refs.push(m);
    return `__yarrow_env_${nonce}_${refs.length - 1}__`;
  });
  return { masked, refs, token: new RegExp(`__yarrow_env_${nonce}_(\\d+)__`, 'g') };
}

function substituteScalars(doc: Document, lineCounter: LineCounter, file: string, env: Env, refs: readonly string[], token: RegExp): void {
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string') return;
      const original = node.value;
      if (!original.includes('__yarrow_env_') && !original.includes('$${')) return;
      let value: string;
      try {
        value = original.replace(token, (_m, i: string) => substituteEnv(refs[Number(i)], env)).replaceAll('$${', '${');
      } catch (e) {
        if (!(e instanceof SubstitutionError)) throw e;
        const pos = node.range === undefined || node.range === null ? undefined : lineCounter.linePos(node.range[0]);
        throw configError(file, undefined, pos === undefined ? undefined : { line: pos.line, column: pos.col }, e.message);
      }
      // An unquoted `port: ${PORT}` reads as the number it would be if written out, as with
      // textual substitution; quoted values stay strings.
      node.value = node.type === 'PLAIN' ? reparseScalar(value) : value;
    },
  });
}

function reparseScalar(value: string): unknown {
  try {
    const parsed: unknown = parseYaml(value);
    return parsed === null || typeof parsed !== 'object' ? parsed : value;
  } catch {
    return value;
  }
}

function configError(file: string, path: string | undefined, pos: { line: number; column: number } | undefined, reason: string): ConfigError {
  const where = pos === undefined ? file : `${file}:${pos.line}`;
  const message = path === undefined || path === '' ? `${where}: ${reason}` : `${where}: ${path}: ${reason}`;
  const details: { file: string; path?: string; line?: number; column?: number } = { file };
  if (path !== undefined && path !== '') details.path = path;
  if (pos !== undefined) {
    details.line = pos.line;
    details.column = pos.column;
  }
  return new ConfigError(message, details);
}

function describeReadError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (e as Error).message;
}
