import { newErrorId } from '../api/error-body.js'
import { errorTypes, type ErrorType } from '../api/error-types.js'
import type { ReadableIssue } from '../issues/index.js'
import type { WebhookErrorBody } from './errors.js'

/** The JSON answer to a webhook that was processed, accepted or recognised as a duplicate. */
export interface WebhookSuccessBody {
  ok: true
  webhookId: string
  /** True when the id was processed (or durably accepted) before: nothing ran again. */
  duplicate: boolean
  eventId?: string
  /** Acknowledge-first mode: the event is in the inbox and will be processed (status 202). */
  accepted?: boolean
  stopped?: boolean
  /** Count of hooks per status (synchronous mode). */
  hooks?: { ok: number; error: number; timeout: number; skipped: number }
  /** An action request: the action's name and its validated output. */
  action?: string
  output?: unknown
}

const jsonType = 'application/json; charset=utf-8'

/**
 * A JSON answer.
 *
 * @example
 * ```ts
 * jsonAnswer(202, { ok: true, webhookId: 'msg_1', duplicate: false, accepted: true })
 * ```
 */
export function jsonAnswer(status: number, body: WebhookSuccessBody, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': jsonType, ...headers } })
}

/**
 * An error answer with the wire error body; the status is the type's (`Unauthorized` → 401, `Internal` → 500, ...).
 *
 * @example
 * ```ts
 * errorAnswer('Unauthorized', 'INVALID_SIGNATURE', 'webhook-signature: no v1 signature matches')
 * ```
 */
export function errorAnswer(
  type: ErrorType,
  code: string,
  message: string,
  extra: { issues?: readonly ReadableIssue[]; headers?: Record<string, string>; metadata?: Record<string, unknown> } = {},
): Response {
  const status = errorTypes[type].code
  const body: WebhookErrorBody = {
    id: newErrorId(),
    code: status,
    type,
    message,
    metadata: { code, ...extra.metadata, ...(extra.issues ? { issues: extra.issues } : {}) },
  }
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': jsonType, ...extra.headers } })
}
