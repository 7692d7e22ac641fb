import type { ReadableIssue } from '../issues/index.js'

/** Codes of `WebhookVerificationError`. */
export type WebhookVerificationErrorCode =
  | 'missing_header'
  | 'invalid_signature'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'invalid_json'

/**
 * A webhook request failed verification: a header is missing, no signature matches, the timestamp is outside
 * the tolerance, or the body is not JSON. `code` is stable.
 *
 * @example
 * ```ts
 * try { await verifyWebhook({ payload, headers, secret }) } catch (error) {
 *   if (error instanceof WebhookVerificationError) res.status(error.code === 'invalid_json' ? 400 : 401)
 * }
 * ```
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError'
  constructor(
    readonly code: WebhookVerificationErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/**
 * The webhook handler was configured wrongly (missing or empty secret, bad limit or tolerance). Thrown by
 * `createWebhookHandler` and `verifyWebhook`, never per request. `code` is `invalid_webhook_config`.
 *
 * @example
 * ```ts
 * createWebhookHandler({ runtime, secret: '' }) // throws WebhookConfigError
 * ```
 */
export class WebhookConfigError extends Error {
  override readonly name = 'WebhookConfigError'
  readonly code = 'invalid_webhook_config'
}

/** The JSON body of every error answer of the webhook handler. */
export interface WebhookErrorBody {
  ok: false
  code: string
  message: string
  issues?: ReadableIssue[]
}
