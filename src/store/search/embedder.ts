import { BotshelfError } from '../../errors/index.js'

/**
 * Turns texts into unit-normalised vectors. Declared here for the search index until the embeddings module lands
 * (the integrator keeps one declaration); the shape is the embeddings module's.
 *
 * @example
 * ```ts
 * const [vector] = await embedder.embed(['refund policy'], { purpose: 'query' })
 * ```
 */
export interface Embedder {
  /** Stable id of the model and its settings: vectors of two ids are never compared. */
  id: string
  /** Human name for logs and docs. */
  label: string
  /** Length of every vector. */
  dimensions(): Promise<number>
  /** One unit-normalised vector per text, in order. */
  embed(texts: readonly string[], options?: { signal?: AbortSignal; purpose?: 'query' | 'passage' }): Promise<Float32Array[]>
}

/**
 * The embedder cannot answer now (down, rate limited); try again after `retryAfterMs`. Indexing waits and retries;
 * search falls back to lexical ranking.
 *
 * @example
 * ```ts
 * throw new EmbedderUnavailableError('the embeddings endpoint answered 503', 30_000)
 * ```
 */
export class EmbedderUnavailableError extends BotshelfError {
  override readonly name = 'EmbedderUnavailableError'
  constructor(
    message: string,
    /** When to try again, in milliseconds. */
    readonly retryAfterMs: number,
  ) {
    super('Internal', 'EMBEDDER_UNAVAILABLE', message)
  }
}

/**
 * Whether an error means "the embedder is unavailable, retry later", whichever module's class made it (matched by
 * name and a numeric `retryAfterMs`, so a second declaration of the class is recognised too).
 *
 * @example
 * ```ts
 * if (isEmbedderUnavailable(error)) deferFor(error.retryAfterMs)
 * ```
 */
export function isEmbedderUnavailable(error: unknown): error is { name: string; message: string; retryAfterMs: number } {
  return (
    error instanceof EmbedderUnavailableError ||
    (typeof error === 'object' &&
      error !== null &&
      (error as { name?: unknown }).name === 'EmbedderUnavailableError' &&
      typeof (error as { retryAfterMs?: unknown }).retryAfterMs === 'number')
  )
}
