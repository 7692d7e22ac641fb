import { formatIssues, type ReadableIssue } from '../issues/index.js'
import type { HookPoint } from './hook-points.js'

/**
 * Every error the runtime throws or reports extends this class; `code` is stable and machine-readable.
 *
 * @example
 * ```ts
 * catch (error) { if (error instanceof BotRuntimeError) console.log(error.code) }
 * ```
 */
export class BotRuntimeError extends Error {
  override readonly name: string = 'BotRuntimeError'
  constructor(
    /** Stable error code, for example `duplicate_hook_name` or `action_timeout`. */
    readonly code: string,
    message: string,
    options?: {
      /** What caused this error (kept as the standard `error.cause`): `{ cause: thrown }`. */
      cause?: unknown
    },
  ) {
    super(message, options)
  }
}

/** Codes of `RuntimeDefinitionError`. */
export type RuntimeDefinitionErrorCode =
  | 'invalid_hook'
  | 'unknown_hook_point'
  | 'duplicate_hook_name'
  | 'invalid_action'
  | 'duplicate_action_name'
  | 'invalid_timeout'

/**
 * A hook, an action or a runtime was defined wrongly (unknown point, duplicate name, bad timeout, ...).
 * Thrown at definition time, never while events are processed.
 *
 * @example
 * ```ts
 * defineHook({ name: 'x', point: 'beforeEverything', handler }) // throws, code 'unknown_hook_point'
 * ```
 */
export class RuntimeDefinitionError extends BotRuntimeError {
  override readonly name = 'RuntimeDefinitionError'
  declare readonly code: RuntimeDefinitionErrorCode
  constructor(code: RuntimeDefinitionErrorCode, message: string) {
    super(code, message)
  }
}

/** Codes of `HookError`. */
export type HookErrorCode = 'hook_failed' | 'hook_timeout' | 'hook_invalid_event'

/**
 * What went wrong in one hook: it threw (`hook_failed`, the thrown value is the `cause`), ran past its deadline
 * (`hook_timeout`) or returned an event that does not validate or changes the event's id, botId or direction
 * (`hook_invalid_event`). The message names the hook, the point and the event id.
 *
 * @example
 * ```ts
 * const failed = report.hooks.find((h) => h.status === 'error')
 * console.log(failed?.error?.message) // 'Hook "tagger" (beforeIncoming) failed on event evt_1: boom'
 * ```
 */
export class HookError extends BotRuntimeError {
  override readonly name = 'HookError'
  declare readonly code: HookErrorCode
  constructor(
    code: HookErrorCode,
    readonly hook: string,
    readonly point: HookPoint,
    readonly eventId: string,
    detail: string,
    options?: {
      /** What caused this error (kept as the standard `error.cause`): `{ cause: thrown }`. */
      cause?: unknown
    },
  ) {
    super(code, `Hook "${hook}" (${point}) ${verb(code)} on event ${eventId}: ${detail}`, options)
  }
}

function verb(code: HookErrorCode): string {
  if (code === 'hook_timeout') return 'timed out'
  if (code === 'hook_invalid_event') return 'returned an invalid event'
  return 'failed'
}

/**
 * Base class of the errors `runtime.runAction` throws; `action` is the action's name.
 *
 * @example
 * ```ts
 * catch (error) { if (error instanceof ActionError) console.log(error.action, error.code) }
 * ```
 */
export class ActionError extends BotRuntimeError {
  override readonly name: string = 'ActionError'
  constructor(
    code: string,
    readonly action: string,
    message: string,
    options?: {
      /** What caused this error (kept as the standard `error.cause`): `{ cause: thrown }`. */
      cause?: unknown
    },
  ) {
    super(code, message, options)
  }
}

/**
 * No action has that name. `code` is `action_not_found`.
 *
 * @example
 * ```ts
 * await runtime.runAction('nope' as never, {}, { event }) // throws ActionNotFoundError
 * ```
 */
export class ActionNotFoundError extends ActionError {
  override readonly name = 'ActionNotFoundError'
  constructor(action: string, known: readonly string[]) {
    const list = known.length > 0 ? known.map((n) => `"${n}"`).join(', ') : 'none'
    super('action_not_found', action, `No action named "${action}"; defined actions: ${list}`)
  }
}

/**
 * The input did not match the action's input schema; the handler did not run. `code` is `invalid_action_input`.
 *
 * @example
 * ```ts
 * catch (error) { if (error instanceof ActionInputError) console.log(error.issues) }
 * ```
 */
export class ActionInputError extends ActionError {
  override readonly name = 'ActionInputError'
  constructor(
    action: string,
    readonly issues: readonly ReadableIssue[],
  ) {
    super('invalid_action_input', action, formatIssues(`Invalid input for action "${action}"`, issues))
  }
}

/**
 * The handler returned a value that does not match the action's output schema. `code` is `invalid_action_output`.
 *
 * @example
 * ```ts
 * catch (error) { if (error instanceof ActionOutputError) console.log(error.issues) }
 * ```
 */
export class ActionOutputError extends ActionError {
  override readonly name = 'ActionOutputError'
  constructor(
    action: string,
    readonly issues: readonly ReadableIssue[],
  ) {
    super('invalid_action_output', action, formatIssues(`Invalid output from action "${action}"`, issues))
  }
}

/**
 * The handler threw; the thrown value is the `cause`. `code` is `action_failed`.
 *
 * @example
 * ```ts
 * catch (error) { if (error instanceof ActionFailedError) console.log(error.cause) }
 * ```
 */
export class ActionFailedError extends ActionError {
  override readonly name = 'ActionFailedError'
  constructor(action: string, eventId: string, cause: unknown) {
    super('action_failed', action, `Action "${action}" failed on event ${eventId}: ${describeError(cause)}`, { cause })
  }
}

/**
 * The handler ran past its deadline; its signal was aborted. `code` is `action_timeout`.
 *
 * @example
 * ```ts
 * catch (error) { if (error instanceof ActionTimeoutError) retryLater() }
 * ```
 */
export class ActionTimeoutError extends ActionError {
  override readonly name = 'ActionTimeoutError'
  constructor(
    action: string,
    eventId: string,
    readonly timeoutMs: number,
  ) {
    super('action_timeout', action, `Action "${action}" timed out on event ${eventId} after ${timeoutMs} ms`)
  }
}

/** A short description of anything thrown. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  if (typeof error === 'string') return error
  try {
    return JSON.stringify(error) ?? String(error)
  } catch {
    return String(error)
  }
}
