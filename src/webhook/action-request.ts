import { BotshelfError } from '../errors/index.js'
import { EventValidationError } from '../event/index.js'
import type { ReadableIssue } from '../issues/index.js'
import type { Runtime } from '../runtime/index.js'
import { ActionInputError, ActionNotFoundError } from '../runtime/index.js'

/** The body of a signed request that runs an action: its name, its input and the event it runs for. */
export interface ActionRequestBody {
  action: string
  input: unknown
  event: unknown
}

/**
 * Tells an action request from an event: a JSON object with a string `action` and no `type` (every event has one).
 *
 * @example
 * ```ts
 * isActionRequest({ action: 'saveLead', input: { email: 'a@b.co' }, event }) // true
 * ```
 */
export function isActionRequest(body: unknown): body is { action: string } {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && typeof (body as { action?: unknown }).action === 'string' && !('type' in body)
}

/** What running an action request came to: its output, or a refusal the receiver answers as is. */
export type ActionRequestOutcome =
  | { ok: true; action: string; output: unknown }
  | { ok: false; retryable: false; type: 'InvalidPayload' | 'ResourceNotFound'; code: string; message: string; issues?: readonly ReadableIssue[] }
  | { ok: false; retryable: true; error: unknown }

/**
 * Runs an action request through the runtime's `runAction`. The caller's mistakes (no such action, bad input, a
 * missing or invalid event) come back as refusals with their message; anything else (the action threw, timed out,
 * returned a bad output) as a retryable failure whose detail stays on the receiver's side.
 *
 * @example
 * ```ts
 * const outcome = await runActionRequest(runtime, { action: 'add', input: { a: 1, b: 2 }, event })
 * ```
 */
export async function runActionRequest(runtime: Partial<Pick<Runtime, 'runAction'>>, body: { action: string } & Record<string, unknown>): Promise<ActionRequestOutcome> {
  const { action } = body
  if (typeof runtime.runAction !== 'function') {
    return { ok: false, retryable: false, type: 'ResourceNotFound', code: 'ACTION_NOT_FOUND', message: `No action named "${action}": the runtime has no actions` }
  }
  if (typeof body['event'] !== 'object' || body['event'] === null) {
    return {
      ok: false,
      retryable: false,
      type: 'InvalidPayload',
      code: 'INVALID_ACTION_REQUEST',
      message: `event: expected the event the action runs for (an object), received ${body['event'] === null ? 'null' : typeof body['event']}`,
    }
  }
  try {
    const run = runtime.runAction as (name: string, input: unknown, options: { event: unknown }) => Promise<unknown>
    return { ok: true, action, output: await run(action, body['input'], { event: body['event'] }) }
  } catch (error) {
    if (error instanceof ActionNotFoundError) return { ok: false, retryable: false, type: 'ResourceNotFound', code: error.code, message: error.message }
    if (error instanceof ActionInputError || error instanceof EventValidationError) {
      return { ok: false, retryable: false, type: 'InvalidPayload', code: (error as BotshelfError).code, message: error.message, issues: error.issues }
    }
    return { ok: false, retryable: true, error }
  }
}
