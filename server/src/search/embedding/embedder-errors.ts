import { BotshelfError } from 'botshelf/api'

/** The stable codes of embedding failures. */
export type EmbedderErrorCode =
  /** The service cannot be reached or is overloaded; try again after `retryAfterMs`. */
  | 'EMBEDDER_UNAVAILABLE'
  /** The service refused the request for good (bad key, unknown model, input it will never take). */
  | 'EMBEDDER_REJECTED'
  /** The service answered something that is not a valid embeddings response. */
  | 'EMBEDDER_BAD_RESPONSE'
  /** The embedder is misconfigured (options or environment). */
  | 'EMBEDDER_INVALID_OPTIONS'
  /** The offline embedder's word-vector file is missing or damaged. */
  | 'EMBEDDER_MODEL_MISSING'

/**
 * A permanent embedding failure: retrying the same call will fail the same way. Indexing marks the document
 * failed; search falls back to lexical ranking.
 *
 * @example
 * ```ts
 * try { await embedder.embed(['hello']) }
 * catch (error) { if (error instanceof EmbedderError && error.code === 'EMBEDDER_REJECTED') console.error(error.message) }
 * ```
 */
export class EmbedderError extends BotshelfError {
  override readonly name: string = 'EmbedderError'
  declare readonly code: EmbedderErrorCode

  constructor(code: EmbedderErrorCode, message: string, metadata?: Record<string, unknown>) {
    super('Internal', code, message, metadata)
  }
}

/**
 * The embedding service is down, timing out or rate limiting: the same call should succeed later. `retryAfterMs`
 * says when to try again (the service's `Retry-After`, or the adapter's own backoff), so indexing can wait and
 * resume and search can answer lexically meanwhile.
 *
 * @example
 * ```ts
 * try { await embedder.embed(texts) }
 * catch (error) { if (error instanceof EmbedderUnavailableError) await job.retryIn(error.retryAfterMs) }
 * ```
 */
export class EmbedderUnavailableError extends EmbedderError {
  override readonly name: string = 'EmbedderUnavailableError'

  constructor(
    message: string,
    /** How long to wait before trying again, in milliseconds. */
    readonly retryAfterMs: number,
    metadata?: Record<string, unknown>,
  ) {
    super('EMBEDDER_UNAVAILABLE', message, { ...metadata, retryAfterMs })
  }
}
