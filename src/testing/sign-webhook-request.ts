import { createHmac } from 'node:crypto'
import { decodeSecret } from '../webhook/signature.js'

/** Options of `signWebhookRequest`. */
export interface SignWebhookRequestOptions {
  /**
   * The body: an object (sent as JSON; `Date`s become ISO 8601), a string or bytes sent as is.
   * @example `payload: fakeTextEvent('hi')`
   */
  payload: unknown
  /**
   * The `whsec_<base64>` secret to sign with.
   * @example `secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'`
   */
  secret: string
  /**
   * `webhook-id`. Default: a new random id (`msg_<uuid>`), so two calls are never duplicates.
   * @example `id: 'msg_1'` (send twice to test de-duplication)
   */
  id?: string
  /**
   * `webhook-timestamp`: a `Date`, or seconds since the epoch. Default: now.
   * @example `timestamp: clock.now()`
   */
  timestamp?: Date | number
  /**
   * Request URL. Default `http://localhost/webhook`.
   * @example `url: 'http://127.0.0.1:3001/webhook'`
   */
  url?: string
}

/**
 * Builds a signed `POST` request that `createWebhookHandler` accepts (Standard Webhooks headers and a `v1`
 * signature). Synchronous (it signs with `node:crypto`), so it fits inline in a call. Pass a fake clock's time as
 * `timestamp` when the handler uses that clock.
 *
 * @example
 * ```ts
 * const response = await handler(signWebhookRequest({ payload: fakeTextEvent('hi'), secret }))
 * ```
 */
export function signWebhookRequest(options: SignWebhookRequestOptions): Request {
  const { payload, secret } = options
  const body = typeof payload === 'string' || payload instanceof Uint8Array ? payload : JSON.stringify(payload)
  const id = options.id ?? `msg_${globalThis.crypto.randomUUID()}`
  const at = options.timestamp ?? new Date()
  const timestamp = at instanceof Date ? Math.floor(at.getTime() / 1000) : Math.floor(at)
  const signature = createHmac('sha256', decodeSecret(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64')
  return new Request(options.url ?? 'http://localhost/webhook', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1,${signature}`,
    },
    body: body as BodyInit,
  })
}
