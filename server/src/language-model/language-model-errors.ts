import { BotshelfError } from 'botshelf/api'

/** The stable codes of language-model failures. */
export type LanguageModelErrorCode =
  /** The service cannot be reached, is too slow or is overloaded; try again after `retryAfterMs`. */
  | 'LANGUAGE_MODEL_UNAVAILABLE'
  /** The service refused the request for good (bad key, unknown model, a request it will never take). */
  | 'LANGUAGE_MODEL_REJECTED'
  /** The service answered something that is not a chat completion. */
  | 'LANGUAGE_MODEL_BAD_RESPONSE'
  /** The adapter's options or the environment are wrong. */
  | 'LANGUAGE_MODEL_INVALID_OPTIONS'
  /** No model is configured (`--llm-url` / `BOTSHELF_LLM_URL`). */
  | 'LANGUAGE_MODEL_NOT_CONFIGURED'

/**
 * A permanent language-model failure: the same request will fail the same way.
 *
 * @example
 * ```ts
 * try { await model.complete(request) }
 * catch (error) { if (error instanceof LanguageModelError && error.code === 'LANGUAGE_MODEL_REJECTED') console.error(error.message) }
 * ```
 */
export class LanguageModelError extends BotshelfError {
  override readonly name: string = 'LanguageModelError'
  declare readonly code: LanguageModelErrorCode

  constructor(code: LanguageModelErrorCode, message: string, metadata?: Record<string, unknown>) {
    super('Internal', code, message, metadata)
  }
}

/**
 * The model is down, timing out or rate limiting: the same request should succeed later. `retryAfterMs` says when
 * (the service's `Retry-After`, or the adapter's backoff), so a job can wait and resume instead of failing.
 *
 * @example
 * ```ts
 * try { await model.complete(request) }
 * catch (error) { if (error instanceof LanguageModelUnavailableError) await job.retryIn(error.retryAfterMs) }
 * ```
 */
export class LanguageModelUnavailableError extends LanguageModelError {
  override readonly name: string = 'LanguageModelUnavailableError'

  constructor(
    message: string,
    /** How long to wait before trying again, in milliseconds. */
    readonly retryAfterMs: number,
    metadata?: Record<string, unknown>,
  ) {
    super('LANGUAGE_MODEL_UNAVAILABLE', message, { ...metadata, retryAfterMs })
  }
}
