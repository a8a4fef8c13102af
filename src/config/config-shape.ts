/**
 * Which shape a config file has. Yarrow's (`store`, `indexing`, per-index `store: { local: { path } |
 * memory | s3 }` and `indexing`) and Nixiesearch 0.8's (`core`, `searcher`, per-index `config`,
 * `store: { local: { disk | memory } | distributed }`) are told apart by the keys only one of them
 * has; `schema`, `fields`, `alias`, `inference` and `api` belong to both. A file using keys of both
 * is refused, naming one key of each.
 */
import type { ConfigShape } from './config-model.js';

/** A key only one shape has, with its dotted path. */
export interface ShapeMarker {
  readonly shape: ConfigShape;
  readonly path: string;
}

/** The shape of a parsed file, or the two markers that conflict. */
export type ShapeVerdict = { readonly shape: ConfigShape } | { readonly conflict: readonly [ShapeMarker, ShapeMarker] };

/** Decides the shape of a parsed YAML document; a file with only shared keys is Yarrow's. */
export function detectShape(raw: unknown): ShapeVerdict {
  const markers = shapeMarkers(raw);
  const yarrow = markers.find((m) => m.shape === 'yarrow');
  const nixie = markers.find((m) => m.shape === 'nixiesearch');
  if (yarrow !== undefined && nixie !== undefined) return { conflict: [yarrow, nixie] };
  return { shape: nixie === undefined ? 'yarrow' : 'nixiesearch' };
}

function shapeMarkers(raw: unknown): ShapeMarker[] {
  const out: ShapeMarker[] = [];
  if (!isObject(raw)) return out;
  for (const key of ['store', 'indexing']) if (Object.hasOwn(raw, key)) out.push({ shape: 'yarrow', path: key });
  for (const key of ['core', 'searcher']) if (Object.hasOwn(raw, key)) out.push({ shape: 'nixiesearch', path: key });
  if (!isObject(raw.schema)) return out;
  for (const [name, index] of Object.entries(raw.schema)) {
    if (!isObject(index)) continue;
    const at = `schema.${name}`;
    if (Object.hasOwn(index, 'indexing')) out.push({ shape: 'yarrow', path: `${at}.indexing` });
    if (Object.hasOwn(index, 'config')) out.push({ shape: 'nixiesearch', path: `${at}.config` });
    const store = index.store;
    if (!isObject(store)) continue;
    for (const key of ['memory', 's3']) if (Object.hasOwn(store, key)) out.push({ shape: 'yarrow', path: `${at}.store.${key}` });
    if (Object.hasOwn(store, 'distributed')) out.push({ shape: 'nixiesearch', path: `${at}.store.distributed` });
    const local = store.local;
    if (isObject(local)) {
      if (Object.hasOwn(local, 'path')) out.push({ shape: 'yarrow', path: `${at}.store.local.path` });
      for (const key of ['disk', 'memory']) if (Object.hasOwn(local, key)) out.push({ shape: 'nixiesearch', path: `${at}.store.local.${key}` });
    }
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
