/**
 * Texts to model inputs: tokenize with truncation to `max_tokens` (special tokens kept), then cut a
 * job into sub-batches of similar lengths so padding stays small, each bounded in rows and in
 * padded tokens (the attention's memory grows with rows x tokens x tokens: a 32 x 512 batch of
 * long passages is what drives a runtime toward 1 GB).
 */

/**
 * The part of @huggingface/tokenizers' `Tokenizer` used here. Its published types do not resolve
 * under NodeNext (extensionless relative imports in an ESM package), so they are restated.
 */
export interface TextTokenizer {
  encode(text: string): { ids: number[] };
  get_added_tokens_decoder(): Map<number, { special: boolean }>;
}

/**
 * Most padded tokens (rows x longest row) one model call takes. Measured on all-MiniLM-L6-v2 with
 * 32 passages of 256 tokens (process peak RSS, model loaded at ~320 MB): 16,384 -> 0.82-1.4 GB,
 * 4,096 -> ~0.64 GB, 1,024 -> ~0.45 GB, at the same passages/s within noise (on CPU, batching
 * buys little once a call has a few hundred tokens). Short texts still go 32 to a call.
 */
export const MAX_BATCH_TOKENS = 1024;

/** A tokenized text. */
export type TokenIds = readonly number[];

/**
 * Token ids of `text`, at most `maxTokens` of them. The text is cut to a character budget before
 * tokenizing (a 1 MB field must not be tokenized whole to keep 512 tokens), widened when the cut
 * left fewer tokens than allowed; a truncated encoding keeps its closing special token.
 */
export function encodeTruncated(tokenizer: TextTokenizer, specialIds: ReadonlySet<number>, text: string, maxTokens: number): TokenIds {
  let budget = maxTokens * 8;
  for (;;) {
    const cut = text.length > budget;
    const ids = tokenizer.encode(cut ? text.slice(0, budget) : text).ids;
    if (!cut || ids.length > maxTokens) return truncate(ids, specialIds, maxTokens);
    budget *= 4;
  }
}

function truncate(ids: number[], specialIds: ReadonlySet<number>, maxTokens: number): TokenIds {
  if (ids.length <= maxTokens) return ids;
  const last = ids[ids.length - 1];
  if (specialIds.has(last)) {
    const out = ids.slice(0, maxTokens);
    out[maxTokens - 1] = last;
    return out;
  }
  return ids.slice(0, maxTokens);
}

/** Rows of one model call: indexes into the job's texts, and the padded length. */
export interface SubBatch {
  readonly rows: readonly number[];
  readonly seq: number;
}

/** Splits encoded texts into sub-batches: sorted by length, at most `maxRows` rows and {@link MAX_BATCH_TOKENS} padded tokens each. */
export function planSubBatches(encoded: readonly TokenIds[], maxRows: number, maxBatchTokens = MAX_BATCH_TOKENS): SubBatch[] {
  const order = encoded.map((_, i) => i).sort((a, b) => encoded[a].length - encoded[b].length);
  const out: SubBatch[] = [];
  let rows: number[] = [];
  let seq = 0;
  for (const i of order) {
    const len = Math.max(1, encoded[i].length);
    // Sorted ascending, so this row is the longest of the batch if it joins.
    if (rows.length > 0 && (rows.length >= maxRows || (rows.length + 1) * len > maxBatchTokens)) {
      out.push({ rows, seq });
      rows = [];
    }
    rows.push(i);
    seq = len;
  }
  if (rows.length > 0) out.push({ rows, seq });
  return out;
}

/** The int64 input tensors' data of a sub-batch: ids, attention mask, token types (all zero: one segment). */
export function buildInputs(encoded: readonly TokenIds[], batch: SubBatch): { ids: BigInt64Array; mask: BigInt64Array; types: BigInt64Array; lengths: Int32Array } {
  const n = batch.rows.length * batch.seq;
  const ids = new BigInt64Array(n);
  const mask = new BigInt64Array(n);
  const lengths = new Int32Array(batch.rows.length);
  batch.rows.forEach((row, r) => {
    const tokens = encoded[row];
    lengths[r] = tokens.length;
    const o = r * batch.seq;
    for (let t = 0; t < tokens.length; t++) {
      ids[o + t] = BigInt(tokens[t]);
      mask[o + t] = 1n;
    }
  });
  return { ids, mask, types: new BigInt64Array(n), lengths };
}
