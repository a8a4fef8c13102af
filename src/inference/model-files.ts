/**
 * Puts a model's files on local disk and says where they are. A local directory is used in place;
 * a hub handle or URL is downloaded on first use into `<cacheDir>/models/...` (Nixiesearch's
 * layout: `models/<org>/<name>/<file>`), file by file through a temporary name and a rename, and a
 * completion marker written last, so a later start finds a complete copy and never touches the
 * network, and a download cut halfway is redone rather than half used.
 *
 * The hub is read the way the Hugging Face hub serves it: `GET <hub>/api/models/<org>/<name>`
 * lists the files (`siblings[].rfilename`), `GET <hub>/<org>/<name>/resolve/main/<file>` returns
 * one. The hub's address is `HF_ENDPOINT` (as for the Hugging Face tools) or
 * https://huggingface.co; `HF_TOKEN`, when set, is sent for gated models.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { InferenceError, InferenceErrorCode, reasonOf } from './inference-error.js';
import type { ModelLocation } from './model-location.js';

/** The default hub. */
export const DEFAULT_HUB_ENDPOINT = 'https://huggingface.co';

/** Where model files come from and go to. */
export interface ModelFilesOptions {
  /** Downloads go under `<cacheDir>/models/`. */
  readonly cacheDir: string;
  /** Hub base URL; default `HF_ENDPOINT`, else {@link DEFAULT_HUB_ENDPOINT}. */
  readonly hubEndpoint?: string;
  /** Called before each download, for the log. */
  readonly onDownload?: (url: string) => void;
}

/** A model on local disk. */
export interface ModelFiles {
  /** The directory holding `tokenizer.json` and the configs. */
  readonly dir: string;
  /** The ONNX file, absolute. */
  readonly onnxPath: string;
}

/** Files a sentence-transformers model may carry that inform pooling, prompts and the tokenizer. */
const OPTIONAL_FILES = ['config.json', 'tokenizer_config.json', 'special_tokens_map.json', '1_Pooling/config.json', 'config_sentence_transformers.json'];
const TOKENIZER = 'tokenizer.json';
const MARKER = '.yarrow-complete.json';

/** The model's files on disk, downloading them first when needed. */
export async function modelFiles(modelName: string, location: ModelLocation, file: string | undefined, options: ModelFilesOptions): Promise<ModelFiles> {
  switch (location.kind) {
    case 'local':
      return localFiles(modelName, location.dir, file);
    case 'hub': {
      const dir = join(options.cacheDir, 'models', location.org, location.name);
      const base = (options.hubEndpoint ?? process.env.HF_ENDPOINT ?? DEFAULT_HUB_ENDPOINT).replace(/\/+$/, '');
      return cachedOrDownload(modelName, dir, file, async () => {
        const listed = await listHubFiles(modelName, `${base}/api/models/${location.org}/${location.name}`);
        const onnx = chooseOnnxFile(modelName, listed, file, `${location.org}/${location.name} on the hub`);
        if (!listed.includes(TOKENIZER)) throw unavailable(modelName, `${location.org}/${location.name} on the hub has no ${TOKENIZER}`);
        const extras = [...OPTIONAL_FILES, `${onnx}_data`, `${onnx}.data`].filter((f) => listed.includes(f));
        return { onnx, required: [onnx, TOKENIZER], optional: extras, urlOf: (f: string) => `${base}/${location.org}/${location.name}/resolve/main/${f}` };
      }, options);
    }
    case 'url': {
      const digest = createHash('sha256').update(location.url).digest('hex').slice(0, 16);
      const dir = join(options.cacheDir, 'models', 'url', digest);
      return cachedOrDownload(modelName, dir, file, () => {
        const onnx = file ?? 'model.onnx';
        return Promise.resolve({ onnx, required: [onnx, TOKENIZER], optional: OPTIONAL_FILES, urlOf: (f: string) => `${location.url}/${f}` });
      }, options);
    }
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

function unavailable(model: string, message: string, cause?: unknown): InferenceError {
  return new InferenceError(InferenceErrorCode.modelUnavailable, model, `embedding model "${model}": ${message}`, cause === undefined ? undefined : { cause });
}

/** The ONNX file to load among `files`: `wanted`, else `model.onnx`, else `onnx/model.onnx`, else the only one. */
function chooseOnnxFile(model: string, files: readonly string[], wanted: string | undefined, where: string): string {
  const onnx = files.filter((f) => f.endsWith('.onnx'));
  if (wanted !== undefined) {
    if (files.includes(wanted)) return wanted;
    throw unavailable(model, `${where} has no ${wanted} (ONNX files there: ${onnx.join(', ') || 'none'})`);
  }
  for (const f of ['model.onnx', 'onnx/model.onnx']) if (files.includes(f)) return f;
  if (onnx.length === 1) return onnx[0];
  if (onnx.length === 0) throw unavailable(model, `${where} has no .onnx file: export the model to ONNX, or point "model" at a repository that has one`);
  throw unavailable(model, `${where} has several ONNX files (${onnx.join(', ')}): choose one with "file"`);
}

async function localFiles(model: string, dir: string, file: string | undefined): Promise<ModelFiles> {
  let names: string[];
  try {
    names = (await readdir(dir, { recursive: true })).map((n) => n.split('\\').join('/'));
  } catch (e) {
    throw unavailable(model, `cannot read the model directory ${dir}: ${reasonOf(e)}`, e);
  }
  const onnx = chooseOnnxFile(model, names, file, `the model directory ${dir}`);
  if (!names.includes(TOKENIZER)) throw unavailable(model, `the model directory ${dir} has no ${TOKENIZER}`);
  return { dir, onnxPath: join(dir, onnx) };
}

interface DownloadPlan {
  readonly onnx: string;
  readonly required: readonly string[];
  readonly optional: readonly string[];
  readonly urlOf: (file: string) => string;
}

async function cachedOrDownload(model: string, dir: string, file: string | undefined, plan: () => Promise<DownloadPlan>, options: ModelFilesOptions): Promise<ModelFiles> {
  const marker = await readMarker(join(dir, MARKER));
  if (marker !== null && (file === undefined || marker.onnx === file) && (await exists(join(dir, marker.onnx)))) {
    return { dir, onnxPath: join(dir, marker.onnx) };
  }
  const p = await plan();
  for (const f of p.required) {
    if (!(await download(model, p.urlOf(f), join(dir, f), options))) throw unavailable(model, `${p.urlOf(f)} does not exist (404)`);
  }
  for (const f of p.optional) await download(model, p.urlOf(f), join(dir, f), options);
  await writeFile(join(dir, MARKER), JSON.stringify({ onnx: p.onnx, at: new Date().toISOString() }));
  return { dir, onnxPath: join(dir, p.onnx) };
}

async function readMarker(path: string): Promise<{ onnx: string } | null> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as { onnx?: unknown };
    return typeof parsed.onnx === 'string' ? { onnx: parsed.onnx } : null;
  } catch {
    return null;
  }
}

function authHeaders(): Record<string, string> {
  const token = process.env.HF_TOKEN;
  return token === undefined || token === '' ? {} : { authorization: `Bearer ${token}` };
}

async function listHubFiles(model: string, url: string): Promise<string[]> {
  let res: Response;
  try {
    res = await fetch(url, { headers: authHeaders(), signal: AbortSignal.timeout(30_000) });
  } catch (e) {
    throw unavailable(model, `cannot reach the hub at ${url}: ${reasonOf(e)} (offline? put the model in a local directory and point "model" at it)`, e);
  }
  if (!res.ok) throw unavailable(model, `the hub answered ${res.status} for ${url}${res.status === 401 || res.status === 403 ? ' (gated model? set HF_TOKEN)' : ''}`);
  const card = (await res.json()) as { siblings?: { rfilename?: unknown }[] };
  return (card.siblings ?? []).map((s) => s.rfilename).filter((f): f is string => typeof f === 'string');
}

/** Downloads `url` to `target` through a temporary file; false on 404. */
async function download(model: string, url: string, target: string, options: ModelFilesOptions): Promise<boolean> {
  options.onDownload?.(url);
  let res: Response;
  try {
    res = await fetch(url, { headers: authHeaders(), redirect: 'follow' });
  } catch (e) {
    throw unavailable(model, `cannot download ${url}: ${reasonOf(e)}`, e);
  }
  if (res.status === 404) {
    await res.body?.cancel();
    return false;
  }
  if (!res.ok || res.body === null) throw unavailable(model, `downloading ${url} failed: HTTP ${res.status}`);
  await mkdir(dirname(target), { recursive: true });
  const tmp = `${target}.tmp-${process.pid}`;
  try {
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(tmp));
    await rename(tmp, target);
  } catch (e) {
    await rm(tmp, { force: true });
    throw unavailable(model, `downloading ${url} failed: ${reasonOf(e)}`, e);
  }
  return true;
}
