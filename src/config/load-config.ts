/**
 * Loading the config file: read, parse YAML (keeping positions), substitute `${VAR}` in scalar
 * values, tell Yarrow's shape from Nixiesearch's, validate with that shape's zod schema and every
 * index's fields with the engine's mapping checker, apply `YARROW_CORE_*` / `NIXIESEARCH_CORE_*`
 * overrides, and report every problem at once as one {@link ConfigError} naming file, line and path.
 */
import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument, parse as parseYaml, visit } from 'yaml';
import type { Document } from 'yaml';
import { checkMapping, MappingProblems } from '../engine/index.js';
import type { Mapping } from '../engine/index.js';
import { ConfigError } from './config-error.js';
import type { ConfigProblem } from './config-error.js';
import type { Config, CoreConfig } from './config-model.js';
import { configSchema, indexNamePattern } from './config-schema.js';
import type { YarrowFileConfig } from './config-schema.js';
import { detectShape } from './config-shape.js';
import { applyCoreEnv } from './core-env.js';
import { substituteEnv, SubstitutionError, TEXT_REFERENCE } from './env-substitution.js';
import { fromNixiesearch, fromYarrow } from './nixiesearch-config.js';
import { nixiesearchConfigSchema } from './nixiesearch-schema.js';
import type { NixiesearchFileConfig } from './nixiesearch-schema.js';
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

/** Problems found so far, each located in the file. */
class Problems {
  readonly list: ConfigProblem[] = [];
  constructor(
    private readonly file: string,
    private readonly doc: Document,
    private readonly lineCounter: LineCounter,
  ) {}

  /** A problem at a dotted path of the file (located by it), or at no path. */
  add(path: string | undefined, reason: string, pos?: { line: number; column: number }): void {
    const at = pos ?? (path === undefined ? undefined : positionOf(this.doc, this.lineCounter, path));
    this.list.push(problem(this.file, path, at, reason));
  }

  /** Throws them all, in file order, as one ConfigError. */
  throwIfAny(): void {
    if (this.list.length === 0) return;
    const sorted = this.list.map((p, i) => ({ p, i })).sort((a, b) => (a.p.line ?? Infinity) - (b.p.line ?? Infinity) || a.i - b.i).map((x) => x.p);
    const { reason: _reason, message: _message, ...first } = sorted[0];
    throw new ConfigError(sorted.map((p) => p.message).join('\n'), first, undefined, sorted);
  }
}

/**
 * Validates config text; `file` only names the source in errors.
 * @throws ConfigError naming the file, line and dotted path of every problem.
 */
export function parseConfig(text: string, file: string, env: Env = process.env): LoadedConfig {
  return parseConfigParts(text, file, env).loaded;
}

/**
 * What a parse gives the config cache (config-cache.ts) besides its result: the `core` section as
 * the file gave it (before the environment's overrides, which a cached entry applies again) and
 * the raw field specs of each index, in file order (from which the engine's parser makes the
 * mappings again).
 */
export interface ParsedConfigParts {
  readonly loaded: LoadedConfig;
  readonly fileCore: CoreConfig;
  readonly fieldSpecs: readonly (readonly [string, unknown])[];
}

/**
 * {@link parseConfig}, with what the config cache keeps of it.
 * @throws ConfigError as parseConfig does.
 */
export function parseConfigParts(text: string, file: string, env: Env = process.env): ParsedConfigParts {
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
  const problems = new Problems(file, doc, lineCounter);
  const verdict = detectShape(raw);
  if ('conflict' in verdict) {
    const [yarrow, nixie] = verdict.conflict;
    const yarrowAt = positionOf(doc, lineCounter, yarrow.path);
    problems.add(
      nixie.path,
      `this file mixes Nixiesearch's config shape (${nixie.path}) with Yarrow's (${yarrow.path}${yarrowAt === undefined ? '' : ` at line ${yarrowAt.line}`}): use one shape per file (docs/config.md)`,
    );
    problems.throwIfAny();
  }
  const shape = 'shape' in verdict ? verdict.shape : 'yarrow';
  const schema = shape === 'yarrow' ? configSchema : nixiesearchConfigSchema;
  // Jitless: zod otherwise generates and compiles a parser per object schema on its first parse,
  // which a config, parsed once per process, never repays (issue 17: start-up).
  const result = schema.safeParse(raw, { reportInput: true, jitless: true });
  if (!result.success) {
    for (const issue of result.error.issues) {
      const { path, reason } = describeIssue(issue, schema);
      problems.add(path, reason);
    }
  }
  const mappings = checkMappings(raw, problems);
  if (!result.success) problems.throwIfAny();
  // The data of the one parse above (the schemas' outputs are what fromYarrow / fromNixiesearch take).
  const parsed = shape === 'yarrow' ? fromYarrow(result.data as YarrowFileConfig) : fromNixiesearch(result.data as NixiesearchFileConfig);
  const { core, problems: envProblems } = applyCoreEnv(parsed.core, env);
  for (const p of envProblems) problems.add(undefined, `environment variable ${p.variable}: ${p.reason}`);
  const config: Config = { ...parsed, core };
  checkAliases(config, problems);
  checkModelReferences(config, mappings, problems);
  problems.throwIfAny();
  return { loaded: { file, config, mappings }, fileCore: parsed.core, fieldSpecs: fieldSpecsOf(raw) };
}

/** The raw `fields` of every index of the `schema` section, in file order (the entries checkMappings reads). */
function fieldSpecsOf(raw: unknown): [string, unknown][] {
  const schema = isObject(raw) ? raw.schema : undefined;
  if (!isObject(schema)) return [];
  return Object.entries(schema).flatMap(([name, entry]) => (isObject(entry) ? [[name, entry.fields] as [string, unknown]] : []));
}

/** Every index's fields, checked by the engine; problems are recorded with their lines. */
function checkMappings(raw: unknown, problems: Problems): Map<string, Mapping> {
  const mappings = new Map<string, Mapping>();
  const schema = isObject(raw) ? raw.schema : undefined;
  if (!isObject(schema)) return mappings;
  for (const [name, entry] of Object.entries(schema)) {
    if (!isObject(entry)) continue;
    const found = new MappingProblems();
    const mapping = checkMapping({ fields: entry.fields }, `schema.${name}`, found);
    for (const p of found.list) problems.add(p.path, p.reason);
    if (mapping !== undefined && found.list.length === 0) mappings.set(name, mapping);
  }
  return mappings;
}

/** Aliases are names too: safe, and taken by one index only. */
function checkAliases(config: Config, problems: Problems): void {
  const owner = new Map<string, string>(Object.keys(config.schema).map((n) => [n, n]));
  for (const [name, index] of Object.entries(config.schema)) {
    index.alias.forEach((alias, i) => {
      const path = `schema.${name}.alias${index.alias.length > 1 ? `[${i}]` : ''}`;
      const taken = owner.get(alias);
      if (!indexNamePattern.test(alias)) problems.add(path, `aliases are index names: letters, digits, "_", "." and "-", starting with a letter or digit, but got ${JSON.stringify(alias)}`);
      else if (taken !== undefined) problems.add(path, taken === alias ? `"${alias}" is an index name` : `"${alias}" is already an alias of index ${taken}`);
      else owner.set(alias, name);
    });
  }
}

/** A semantic field's `model` must name an `inference.embedding` model (as Nixiesearch checks). */
function checkModelReferences(config: Config, mappings: ReadonlyMap<string, Mapping>, problems: Problems): void {
  const models = Object.keys(config.inference?.embedding ?? {});
  for (const [name, mapping] of mappings) {
    for (const f of mapping.fields) {
      const model = f.semantic?.model;
      if (model == null || models.includes(model)) continue;
      const defined = models.length === 0 ? 'the config has no inference.embedding section' : `defined: ${models.join(', ')}`;
      problems.add(fieldPath(config, name, f.name, 'search.semantic.model'), `model "${model}" is not defined in inference.embedding (${defined})`);
    }
  }
}

/** The dotted path of a field option, in the map or list form of `fields`. */
function fieldPath(config: Config, index: string, field: string, option: string): string {
  const fields = config.schema[index].fields;
  if (Array.isArray(fields)) {
    const i = (fields as unknown[]).findIndex((item) => isObject(item) && Object.hasOwn(item, field));
    if (i >= 0) return `schema.${index}.fields[${i}].${field}.${option}`;
  }
  return `schema.${index}.fields.${field}.${option}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Substitution happens after parsing so that a variable can never inject YAML structure and a
 * reference inside a comment is inert; but `{ path: ${DIR} }` must still parse, so every reference
 * is first swapped for an inert placeholder word (same line, so line numbers hold).
 */
function maskReferences(text: string): { masked: string; refs: string[]; token: RegExp } {
  // A tag no text of the file contains, so that the placeholders are the only matches of the token
  // (chosen by counting, not drawn from node:crypto, which loading cost ~7 ms of a start; issue 17).
  let tag = 0;
  while (text.includes(`__yarrow_env_${String(tag)}_`)) tag++;
  const refs: string[] = [];
  const masked = text.replace(TEXT_REFERENCE, (m) => {
    if (m === '$${') return m;
    refs.push(m);
    return `__yarrow_env_${String(tag)}_${refs.length - 1}__`;
  });
  return { masked, refs, token: new RegExp(`__yarrow_env_${String(tag)}_(\\d+)__`, 'g') };
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

function problem(file: string, path: string | undefined, pos: { line: number; column: number } | undefined, reason: string): ConfigProblem {
  const where = pos === undefined ? file : `${file}:${pos.line}`;
  const message = path === undefined || path === '' ? `${where}: ${reason}` : `${where}: ${path}: ${reason}`;
  const out: { file: string; path?: string; line?: number; column?: number; reason: string; message: string } = { file, reason, message };
  if (path !== undefined && path !== '') out.path = path;
  if (pos !== undefined) {
    out.line = pos.line;
    out.column = pos.column;
  }
  return out;
}

function configError(file: string, path: string | undefined, pos: { line: number; column: number } | undefined, reason: string): ConfigError {
  const { reason: _reason, message, ...details } = problem(file, path, pos, reason);
  return new ConfigError(message, details);
}

function describeReadError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (e as Error).message;
}
