import { safeParseEvent } from '../event/index.js'
import type { ReadableIssue } from '../issues/index.js'
import type { DispatchReport, Runtime } from '../runtime/index.js'
import { dispatchValidatedEvent, type ValidatedDispatch } from '../runtime/create-runtime.js'
import { createMemoryDedupeStore, type WebhookDedupeStore } from './dedupe-store.js'
import { WebhookConfigError, WebhookVerificationError, type WebhookErrorBody } from './errors.js'
import { readBodyWithLimit } from './read-body.js'
import type { WebhookSecret } from './signature.js'
import type { ClockLike } from '../clock/index.js'
import { checkTolerance, createVerifier } from './verifier.js'
import { parseJsonBody } from './verify-webhook.js'

/** Default and largest accepted body: 100 MB (docs/wire-format.md §5). */
export const MAX_WEBHOOK_BODY_BYTES = 100 * 1024 * 1024

/** A Fetch-API request handler. */
export type FetchHandler = (request: Request) => Promise<Response>

/** Options of `createWebhookHandler`. */
export interface WebhookHandlerOptions {
  /**
   * The runtime events are dispatched to (only its `dispatch` is used).
   * @example `runtime: createRuntime({ hooks })`
   */
  runtime: Pick<Runtime, 'dispatch'>
  /**
   * `whsec_<base64>` secret, or several during a rotation. Required: an empty or missing secret throws.
   * @example `secret: [process.env.WEBHOOK_SECRET_NEW!, process.env.WEBHOOK_SECRET_OLD!]`
   */
  secret: WebhookSecret
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
   * Where webhook ids are remembered to drop duplicates; `false` turns de-duplication off. Default: in memory,
   * each id kept for twice the tolerance.
   * @example `dedupe: createMemoryDedupeStore({ maxEntries: 10_000 })`
   */
  dedupe?: WebhookDedupeStore | false
  /**
   * Clock used for the timestamp check and the default dedupe store. Default: the real time.
   * @example `now: createFakeClock().now`
   */
  now?: ClockLike
}

/** The JSON answer to an accepted webhook. */
export interface WebhookSuccessBody {
  ok: true
  webhookId: string
  /** True when the id was seen before: the event was not dispatched again. */
  duplicate: boolean
  eventId?: string
  stopped?: boolean
  /** Count of hooks per status. */
  hooks?: { ok: number; error: number; timeout: number; skipped: number }
  /** The hooks that failed or timed out, with their error message. */
  failures?: Array<{ hook: string; point: string; status: 'error' | 'timeout'; message: string }>
}

function json(status: number, body: WebhookErrorBody | WebhookSuccessBody, extraHeaders: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...extraHeaders },
  })
}

function fail(status: number, code: string, message: string, issues?: ReadableIssue[], headers?: Record<string, string>): Response {
  return json(status, { ok: false, code, message, ...(issues ? { issues } : {}) }, headers)
}

function summarize(webhookId: string, report: DispatchReport): WebhookSuccessBody {
  const hooks = { ok: 0, error: 0, timeout: 0, skipped: 0 }
  const failures: NonNullable<WebhookSuccessBody['failures']> = []
  for (const hook of report.hooks) {
    hooks[hook.status]++
    if ((hook.status === 'error' || hook.status === 'timeout') && hook.error) {
      failures.push({ hook: hook.hook, point: hook.point, status: hook.status, message: hook.error.message })
    }
  }
  return { ok: true, webhookId, duplicate: false, eventId: report.event.id, stopped: report.stopped, hooks, failures }
}

/**
 * A Fetch-API handler receiving bot events by webhook. Checks, in order: method POST (405); body size while
 * streaming (413, before the body is read to the end); Standard Webhooks signature (401); timestamp inside the
 * tolerance both ways (401); de-duplication by `webhook-id` (a duplicate gets 200 and is not dispatched);
 * JSON (400); event schema (400 with the issue list); then dispatch (200 with a summary of the run report).
 * Every error answer is JSON `{ ok: false, code, message, issues? }`. Throws `WebhookConfigError` at creation for
 * a missing or empty secret or a bad limit.
 *
 * @example
 * ```ts
 * const handler = createWebhookHandler({ runtime, secret: process.env.WEBHOOK_SECRET! })
 * export default { fetch: handler } // Bun, Deno, Cloudflare; or toNodeHandler(handler) for node:http
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions): FetchHandler {
  const { runtime } = options
  if (!runtime || typeof runtime.dispatch !== 'function') {
    throw new WebhookConfigError('runtime: expected a runtime from createRuntime, received ' + typeof runtime)
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
  // A runtime from createRuntime takes the event validated here as it is; any other `dispatch` validates again.
  const dispatchValid = (runtime as ValidatedDispatch)[dispatchValidatedEvent]
  const dispatch = dispatchValid ?? ((event: unknown) => runtime.dispatch(event))

  return async function handleWebhook(request: Request): Promise<Response> {
    if (request.method !== 'POST') {
      return fail(405, 'method_not_allowed', `Method ${request.method} not allowed: send webhooks with POST`, undefined, { allow: 'POST' })
    }

    let body: Awaited<ReturnType<typeof readBodyWithLimit>>
    try {
      body = await readBodyWithLimit(request, maxBodyBytes)
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error)
      return fail(400, 'BODY_READ_FAILED', `Body: could not be read to the end (${detail})`)
    }
    if (!body.ok) {
      return fail(413, 'PAYLOAD_TOO_LARGE', `Body: expected at most ${maxBodyBytes} bytes, received more`, undefined, { connection: 'close' })
    }

    let webhookId: string
    try {
      webhookId = (await verifier.verify(request.headers, body.bytes)).id
    } catch (error) {
      if (error instanceof WebhookVerificationError) return fail(401, error.code, error.message)
      throw error
    }

    if (dedupe && !(await dedupe.claim(webhookId, dedupeTtlMs))) {
      return json(200, { ok: true, webhookId, duplicate: true })
    }

    // From here on a refusal releases the id, so that the sender's corrected retry is not taken for a duplicate.
    const release = async (): Promise<void> => {
      await dedupe?.release(webhookId)
    }
    let payload: unknown
    try {
      payload = parseJsonBody(body.bytes)
    } catch (error) {
      await release()
      return fail(400, 'INVALID_JSON', error instanceof Error ? error.message : 'Body: expected JSON')
    }
    const parsed = safeParseEvent(payload)
    if (!parsed.success) {
      await release()
      return fail(400, parsed.error.code, parsed.error.message, [...parsed.error.issues])
    }
    try {
      return json(200, summarize(webhookId, await dispatch(parsed.event)))
    } catch (error) {
      await release()
      const detail = error instanceof Error ? error.message : String(error)
      return fail(500, 'dispatch_failed', `The runtime could not process the event: ${detail}`)
    }
  }
}
