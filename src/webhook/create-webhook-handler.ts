import { safeParseEvent, type BotEvent } from '../event/index.js'
import type { InboxWorker } from '../inbox/inbox-worker.js'
import { InboxError } from '../inbox/errors.js'
import { orderingKey } from '../inbox/ordering-key.js'
import { createJsonLogger, toLogger, type Logger, type LoggerLike } from '../logging/index.js'
import type { DispatchReport, Runtime } from '../runtime/index.js'
import { dispatchValidatedEvent, type ValidatedDispatch } from '../runtime/create-runtime.js'
import type { ClockLike } from '../clock/index.js'
import { isActionRequest, runActionRequest } from './action-request.js'
import { errorAnswer, jsonAnswer, type WebhookSuccessBody } from './answers.js'
import { createMemoryDedupeStore, type WebhookDedupeStore } from './dedupe-store.js'
import { WebhookBodyConsumedError, WebhookConfigError, WebhookVerificationError } from './errors.js'
import { readBodyWithLimit } from './read-body.js'
import type { WebhookSecret } from './signature.js'
import { checkTolerance, createVerifier } from './verifier.js'
import { parseJsonBody } from './verify-webhook.js'

export type { WebhookSuccessBody } from './answers.js'

/** Default and largest accepted body: 100 MB (docs/wire-format.md §5). */
export const MAX_WEBHOOK_BODY_BYTES = 100 * 1024 * 1024

/** A Fetch-API request handler. */
export type FetchHandler = (request: Request) => Promise<Response>

/** Options of `createWebhookHandler`. */
export interface WebhookHandlerOptions {
  /**
   * The runtime events are dispatched to; its `runAction` serves action requests.
   * @example `runtime: createRuntime({ hooks, actions })`
   */
  runtime: Pick<Runtime, 'dispatch'> & Partial<Pick<Runtime, 'runAction'>>
  /**
   * `whsec_<base64>` secret, or several during a rotation. Required: an empty or missing secret throws.
   * @example `secret: [process.env.WEBHOOK_SECRET_NEW!, process.env.WEBHOOK_SECRET_OLD!]`
   */
  secret: WebhookSecret
  /**
   * Acknowledge-first mode: a verified, valid event is written to the worker's inbox and answered `202` at once;
   * the worker runs the hooks after, with retries. Without it the hooks run before the answer.
   * @example `acknowledgeFirst: createInboxWorker({ runtime, inbox: createTableInbox({ client }) })`
   */
  acknowledgeFirst?: InboxWorker
  /**
   * Largest body accepted, in bytes. Default and maximum 100 MB.
   * @example `maxBodyBytes: 1024 * 1024`
   */
  maxBodyBytes?: number
  /**
   * Accepted clock skew of `webhook-timestamp`, both ways, in seconds. Default 300.
   * @example `toleranceSeconds: 60`
   */
  toleranceSeconds?: number
  /**
   * Where webhook ids are remembered so that an id is processed once; `false` turns de-duplication off. Default:
   * in memory, each processed id kept for twice the tolerance.
   * @example `dedupe: createMemoryDedupeStore({ maxEntries: 10_000 })`
   */
  dedupe?: WebhookDedupeStore | false
  /**
   * Clock used for the timestamp check and the default dedupe store (the inbox uses its worker's). Default: the real time.
   * @example `now: createFakeClock().now`
   */
  now?: ClockLike
  /**
   * Where failed processing is logged (the sender's answer carries no internal detail). Default: JSON lines on
   * standard error.
   * @example `logger: createJsonLogger({ level: 'warn' })`
   */
  logger?: LoggerLike
}

function countHooks(report: DispatchReport): NonNullable<WebhookSuccessBody['hooks']> {
  const hooks = { ok: 0, error: 0, timeout: 0, skipped: 0 }
  for (const hook of report.hooks) hooks[hook.status]++
  return hooks
}

const processingFailedMessage =
  'The event could not be processed; it is not recorded as delivered, so a retry with the same webhook-id will process it'

/**
 * A Fetch-API handler receiving bot events by webhook (decision 1401). Checks, in order: method POST (405); body
 * size while streaming (413); Standard Webhooks or Svix signature (401); timestamp inside the tolerance (401);
 * de-duplication by `webhook-id` (a processed id answers 200 `duplicate: true`, an id still in progress 409);
 * JSON (400); event schema (400 with the issues). Then, by default, the hooks run: 200 when every hook succeeded;
 * a failed or timed-out hook answers 500 with no internal detail and releases the id, so the sender's retry runs.
 * With `acknowledgeFirst`, the event is written to the inbox and answered 202; the worker processes it. A body
 * `{ action, input, event }` runs that action (200 with its `output`). Every error answer is the wire error body
 * `{ id, code, type, message, metadata: { code, issues? } }`. Throws `WebhookConfigError` at creation for a missing
 * or empty secret or a bad limit.
 *
 * @example
 * ```ts
 * const handler = createWebhookHandler({ runtime, secret: process.env.WEBHOOK_SECRET! })
 * export default { fetch: handler } // Bun, Deno, Cloudflare; or toNodeHandler(handler) for node:http
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions): FetchHandler {
  const { runtime, acknowledgeFirst: worker } = options
  if (!runtime || typeof runtime.dispatch !== 'function') {
    throw new WebhookConfigError('runtime: expected a runtime from createRuntime, received ' + typeof runtime)
  }
  if (worker !== undefined && (typeof worker !== 'object' || typeof worker.accept !== 'function')) {
    throw new WebhookConfigError('acknowledgeFirst: expected a worker from createInboxWorker, received ' + typeof worker)
  }
  const maxBodyBytes = options.maxBodyBytes ?? MAX_WEBHOOK_BODY_BYTES
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1 || maxBodyBytes > MAX_WEBHOOK_BODY_BYTES) {
    throw new WebhookConfigError(
      `maxBodyBytes: expected an integer from 1 to ${MAX_WEBHOOK_BODY_BYTES} (100 MB), received ${String(maxBodyBytes)}`,
    )
  }
  const toleranceSeconds = checkTolerance(options.toleranceSeconds)
  const verifier = createVerifier({ secret: options.secret, toleranceSeconds, ...(options.now ? { now: options.now } : {}) })
  const dedupe = options.dedupe === false ? undefined : (options.dedupe ?? createMemoryDedupeStore(options.now ? { now: options.now } : {}))
  const dedupeTtlMs = toleranceSeconds * 2 * 1000
  let logger: Logger | undefined
  const log = (): Logger => (logger ??= options.logger ? toLogger(options.logger) : createJsonLogger())
  // A runtime from createRuntime takes the event validated here as it is; any other `dispatch` validates again.
  const dispatchValid = (runtime as ValidatedDispatch)[dispatchValidatedEvent]
  const dispatch = dispatchValid ?? ((event: unknown) => runtime.dispatch(event))

  async function processNow(webhookId: string, event: BotEvent, release: () => Promise<void>): Promise<Response> {
    let report: DispatchReport
    try {
      report = await dispatch(event)
    } catch (error) {
      await release()
      log().error('webhook processing failed', { webhookId, eventId: event.id, error: error instanceof Error ? error.message : String(error) })
      return errorAnswer('Internal', 'PROCESSING_FAILED', processingFailedMessage, { metadata: { webhookId, eventId: event.id } })
    }
    if (!report.ok) {
      // The runtime logged each failed hook; the sender learns only that it should retry.
      await release()
      return errorAnswer('Internal', 'PROCESSING_FAILED', processingFailedMessage, { metadata: { webhookId, eventId: event.id } })
    }
    await dedupe?.complete(webhookId, dedupeTtlMs)
    return jsonAnswer(200, { ok: true, webhookId, duplicate: false, eventId: report.event.id, stopped: report.stopped, hooks: countHooks(report) })
  }

  async function acceptInInbox(inboxWorker: InboxWorker, webhookId: string, event: BotEvent, body: Uint8Array, release: () => Promise<void>): Promise<Response> {
    let added: boolean
    try {
      const text = new TextDecoder().decode(body)
      ;({ added } = await inboxWorker.accept({ id: webhookId, key: orderingKey(event), body: text }))
    } catch (error) {
      await release()
      if (error instanceof InboxError && error.code === 'INBOX_ENTRY_TOO_LARGE') return errorAnswer('LimitExceeded', error.code, error.message)
      log().error('webhook inbox write failed', { webhookId, eventId: event.id, error: error instanceof Error ? error.message : String(error) })
      return errorAnswer('Internal', 'INBOX_UNAVAILABLE', 'The event could not be stored; a retry with the same webhook-id will be accepted', {
        metadata: { webhookId, eventId: event.id },
      })
    }
    await dedupe?.complete(webhookId, dedupeTtlMs)
    return jsonAnswer(added ? 202 : 200, { ok: true, webhookId, duplicate: !added, eventId: event.id, accepted: true })
  }

  async function runAction(webhookId: string, body: { action: string } & Record<string, unknown>, release: () => Promise<void>): Promise<Response> {
    const outcome = await runActionRequest(runtime, body)
    if (outcome.ok) {
      await dedupe?.complete(webhookId, dedupeTtlMs)
      return jsonAnswer(200, { ok: true, webhookId, duplicate: false, action: outcome.action, output: outcome.output })
    }
    await release()
    if (!outcome.retryable) return errorAnswer(outcome.type, outcome.code, outcome.message, outcome.issues ? { issues: outcome.issues } : {})
    log().error('webhook action failed', { webhookId, action: body.action, error: outcome.error instanceof Error ? outcome.error.message : String(outcome.error) })
    return errorAnswer('Internal', 'ACTION_FAILED', `Action "${body.action}" could not complete; a retry with the same webhook-id will run it`, {
      metadata: { webhookId, action: body.action },
    })
  }

  return async function handleWebhook(request: Request): Promise<Response> {
    if (request.method !== 'POST') {
      return errorAnswer('MethodNotFound', 'METHOD_NOT_ALLOWED', `Method ${request.method} not allowed: send webhooks with POST`, { headers: { allow: 'POST' } })
    }

    let body: Awaited<ReturnType<typeof readBodyWithLimit>>
    try {
      body = await readBodyWithLimit(request, maxBodyBytes)
    } catch (error) {
      if (error instanceof WebhookBodyConsumedError) {
        log().error('webhook body already read', { error: error.message })
        return errorAnswer('Internal', error.code, error.message)
      }
      const detail = error instanceof Error ? error.message : String(error)
      return errorAnswer('InvalidPayload', 'BODY_READ_FAILED', `Body: could not be read to the end (${detail})`)
    }
    if (!body.ok) {
      return errorAnswer('PayloadTooLarge', 'PAYLOAD_TOO_LARGE', `Body: expected at most ${maxBodyBytes} bytes, received more`, { headers: { connection: 'close' } })
    }

    let webhookId: string
    try {
      webhookId = (await verifier.verify(request.headers, body.bytes)).id
    } catch (error) {
      if (error instanceof WebhookVerificationError) return errorAnswer('Unauthorized', error.code, error.message)
      throw error
    }

    const claim = dedupe ? await dedupe.claim(webhookId, dedupeTtlMs) : 'new'
    if (claim === 'processed') return jsonAnswer(200, { ok: true, webhookId, duplicate: true })
    if (claim === 'processing') {
      return errorAnswer('ResourceLockedConflict', 'WEBHOOK_IN_PROGRESS', `webhook-id ${webhookId}: a request with this id is being processed; retry later`, {
        headers: { 'retry-after': '1' },
      })
    }

    // From here on every answer but a success releases the id, so that the sender's retry is processed.
    const release = async (): Promise<void> => {
      await dedupe?.release(webhookId)
    }
    let payload: unknown
    try {
      payload = parseJsonBody(body.bytes)
    } catch (error) {
      await release()
      return errorAnswer('InvalidPayload', 'INVALID_JSON', error instanceof Error ? error.message : 'Body: expected JSON')
    }
    if (isActionRequest(payload)) return runAction(webhookId, payload as { action: string } & Record<string, unknown>, release)
    const parsed = safeParseEvent(payload)
    if (!parsed.success) {
      await release()
      return errorAnswer('InvalidPayload', parsed.error.code, parsed.error.message, { issues: parsed.error.issues })
    }
    if (worker) return acceptInInbox(worker, webhookId, parsed.event, body.bytes, release)
    return processNow(webhookId, parsed.event, release)
  }
}
