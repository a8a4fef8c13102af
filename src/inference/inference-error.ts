/**
 * Inference failures, each with a stable code and a one-line message that names the model and
 * says what to do: a model whose files are missing or cannot be downloaded, a runtime that is not
 * installed, an endpoint that is down or answers vectors of the wrong length.
 */

/** Stable codes of {@link InferenceError} (docs/errors.md, docs/inference.md). */
export const InferenceErrorCode = {
  /** The model cannot be loaded: files missing, download failed, runtime not installed, bad config. */
  modelUnavailable: 'model_unavailable',
  /** A loaded model failed to embed: endpoint down or timing out after retries, a malformed answer. */
  inferenceFailed: 'inference_failed',
} as const;

export type InferenceErrorCode = (typeof InferenceErrorCode)[keyof typeof InferenceErrorCode];

/** A model could not be loaded or could not embed. */
export class InferenceError extends Error {
  override readonly name = 'InferenceError';
  constructor(
    readonly code: InferenceErrorCode,
    /** The configured model name (`inference.embedding.<name>`). */
    readonly model: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A one-line reason for a low-level error (fetch hides the real one in `cause`). */
export function reasonOf(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = (e as { cause?: unknown }).cause;
  if (e.message === 'fetch failed' && cause instanceof Error) return reasonOf(cause);
  const code = (e as NodeJS.ErrnoException).code;
  const first = e.message.split('\n')[0];
  if (typeof code === 'string' && !first.includes(code)) return `${first} (${code})`;
  return first;
}
