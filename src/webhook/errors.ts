import { BotshelfError } from '../errors/index.js'
import type { ErrorBody } from '../api/error-body.js'
import type { ReadableIssue } from '../issues/index.js'

/** Codes of `WebhookVerificationError`. */
export type WebhookVerificationErrorCode =
  | 'MISSING_HEADER'
  | 'INVALID_SIGNATURE'
  | 'INVALID_TIMESTAMP'
  | 'TIMESTAMP_TOO_OLD'
  | 'TIMESTAMP_TOO_NEW'
  | 'INVALID_JSON'

/**
 * A webhook request failed verification: a header is missing, no signature matches, the timestamp is outside
 * the tolerance, or the body is not JSON. `code` is stable.
 *
 * @example
 * ```ts
 * try { await verifyWebhook({ payload, headers, secret }) } catch (error) {
 *   if (error instanceof WebhookVerificationError) res.status(error.code === 'INVALID_JSON' ? 400 : 401)
 * }
 * ```
 */
export class WebhookVerificationError extends BotshelfError {
  override readonly name = 'WebhookVerificationError'
  declare readonly code: WebhookVerificationErrorCode
  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(code === 'INVALID_JSON' ? 'InvalidPayload' : 'Unauthorized', code, message)
  }
}

/**
 * The webhook handler was configured wrongly (missing or empty secret, bad limit or tolerance). Thrown by
 * `createWebhookHandler` and `verifyWebhook`, never per request. `code` is `INVALID_WEBHOOK_CONFIG`.
 *
 * @example
 * ```ts
 * createWebhookHandler({ runtime, secret: '' }) // throws WebhookConfigError
 * ```
 */
export class WebhookConfigError extends BotshelfError {
  override readonly name = 'WebhookConfigError'
  declare readonly code: 'INVALID_WEBHOOK_CONFIG'
  constructor(message: string) {
    super('InvalidPayload', 'INVALID_WEBHOOK_CONFIG', message)
  }
}

/**
 * The body of a request reached the receiver already read (a body parser such as `express.json()` ran first) and
 * no raw body was kept (`req.rawBody`, or a `Buffer`/string `req.body`): the signature cannot be checked. The
 * receiver answers it at once with 500 (a set-up fault, so the sender retries once it is fixed). `code` is
 * `BODY_ALREADY_READ`.
 *
 * @example
 * ```ts
 * app.post('/webhook', express.raw({ type: '*\/*' }), toNodeHandler(handler)) // keeps the bytes: no error
 * ```
 */
export class WebhookBodyConsumedError extends BotshelfError {
  override readonly name = 'WebhookBodyConsumedError'
  declare readonly code: 'BODY_ALREADY_READ'
  constructor(message: string) {
    super('Internal', 'BODY_ALREADY_READ', message)
  }
}

/**
 * The JSON body of every error answer of the webhook handler: the wire error body `{ id, code, type, message,
 * metadata }` (HTTP status = `code`), with the receiver's stable code in `metadata.code` and, for an invalid event or
 * action input, the issue list in `metadata.issues`.
 */
export type WebhookErrorBody = Omit<ErrorBody, 'metadata'> & {
  metadata: { code: string; issues?: readonly ReadableIssue[]; [key: string]: unknown }
}
