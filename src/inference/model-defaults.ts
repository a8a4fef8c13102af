/**
 * Pooling and prompts a model needs when the config does not say: read from the
 * sentence-transformers files the model carries (`1_Pooling/config.json`,
 * `config_sentence_transformers.json`), else guessed from the model's name the way Nixiesearch
 * guesses (e5 wants `query: ` / `passage: `, bge's English models a query instruction, gte,
 * Snowflake, mixedbread and bge pool the CLS token), else mean pooling and no prompts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** How token vectors become one text vector. */
export type Pooling = 'cls' | 'mean' | 'last';

/** Prompt prefixes for queries and documents. */
export interface Prompts {
  readonly query: string;
  readonly doc: string;
}

/** What a model's files and name say about pooling and prompts. */
export interface ModelDefaults {
  readonly pooling: Pooling;
  readonly prompt: Prompts;
}

async function readJson(path: string): Promise<Record<string, unknown> | null> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Pooling and prompts for the model in `dir`, whose configured `model` string is `handle`. */
export async function modelDefaults(dir: string, handle: string): Promise<ModelDefaults> {
  return { pooling: await poolingOf(dir, handle), prompt: await promptsOf(dir, handle) };
}

async function poolingOf(dir: string, handle: string): Promise<Pooling> {
  const pooling = await readJson(join(dir, '1_Pooling', 'config.json'));
  if (pooling?.pooling_mode_cls_token === true) return 'cls';
  if (pooling?.pooling_mode_mean_tokens === true) return 'mean';
  return /(^|\/)(Alibaba-NLP|Snowflake|mixedbread-ai|BAAI)\/|bge-|gte-/i.test(handle) ? 'cls' : 'mean';
}

async function promptsOf(dir: string, handle: string): Promise<Prompts> {
  const st = await readJson(join(dir, 'config_sentence_transformers.json'));
  const prompts = st?.prompts;
  if (typeof prompts === 'object' && prompts !== null) {
    const p = prompts as Record<string, unknown>;
    const query = typeof p.query === 'string' ? p.query : '';
    const docValue = p.document ?? p.passage ?? p.doc;
    const doc = typeof docValue === 'string' ? docValue : '';
    if (query !== '' || doc !== '') return { query, doc };
  }
  if (/e5-/i.test(handle)) return { query: 'query: ', doc: 'passage: ' };
  if (/bge-(small|base|large)-en/i.test(handle)) return { query: 'Represent this sentence for searching relevant passages: ', doc: '' };
  return { query: '', doc: '' };
}
