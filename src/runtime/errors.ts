import type { ErrorType } from '../api/error-types.js'
import { BotshelfError } from '../errors/index.js'
import { formatIssues, type ReadableIssue } from '../issues/index.js'
import type { HookPoint } from './hook-points.js'

/** The wire error type of each runtime code; a code not listed is `Runtime` (the bot's own code failed). */
const wireTypeOfCode: Readonly<Record<string, ErrorType>> = {
  INVALID_HOOK: 'InvalidPayload',
  UNKNOWN_HOOK_POINT: 'InvalidPayload',
  DUPLICATE_HOOK_NAME: 'InvalidPayload',
  INVALID_ACTION: 'InvalidPayload',
  DUPLICATE_ACTION_NAME: 'InvalidPayload',
  INVALID_TIMEOUT: 'InvalidPayload',
  INVALID_STATE: 'InvalidPayload',
  STATE_CONFLICT: 'ResourceLockedConflict',
  INVALID_ACTION_INPUT: 'InvalidPayload',
  ACTION_NOT_FOUND: 'ResourceNotFound',
  HOOK_TIMEOUT: 'OperationTimeout',
  ACTION_TIMEOUT: 'OperationTimeout',
}

/**
 * Every error the runtime throws or reports extends this class, itself a `BotshelfError` (the one hierarchy of
 * botshelf's errors): `code` is stable and machine-readable, `type` the wire error type it would answer with.
 *
 * @example
 * ```ts
 * catch (error) { if (error instanceof BotRuntimeError) console.log(error.code) }
 * ```
 */
export class BotRuntimeError extends BotshelfError {
  override readonly name: string = 'BotRuntimeError'
  constructor(
    /** Stable error code, for example `DUPLICATE_HOOK_NAME` or `ACTION_TIMEOUT`. */
    code: string,
    message: string,
    options?: {
      /** What caused this error (kept as the standard `error.cause`): `{ cause: thrown }`. */
      cause?: unknown
    },
  ) {
    super(wireTypeOfCode[code] ?? 'Runtime', code, message, undefined, options)
  }
}

/** Codes of `RuntimeDefinitionError`. */
export type RuntimeDefinitionErrorCode =
  | 'INVALID_HOOK'
  | 'UNKNOWN_HOOK_POINT'
  | 'DUPLICATE_HOOK_NAME'
  | 'INVALID_ACTION'
  | 'DUPLICATE_ACTION_NAME'
  | 'INVALID_TIMEOUT'
  | 'INVALID_STATE'

/**
 * A hook, an action or a runtime was defined wrongly (unknown point, duplicate name, bad timeout, ...).
 * Thrown at definition time, never while events are processed.
 *
 * @example
 * ```ts
 * defineHook({ name: 'x', point: 'beforeEverything', handler }) // throws, code 'UNKNOWN_HOOK_POINT'
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
export type HookErrorCode = 'HOOK_FAILED' | 'HOOK_TIMEOUT' | 'HOOK_INVALID_EVENT'

/**
 * What went wrong in one hook: it threw (`HOOK_FAILED`, the thrown value is the `cause`), ran past its deadline
 * (`HOOK_TIMEOUT`) or returned an event that does not validate or changes the event's id, botId or direction
 * (`HOOK_INVALID_EVENT`). The message names the hook, the point and the event id.
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
  if (code === 'HOOK_TIMEOUT') return 'timed out'
  if (code === 'HOOK_INVALID_EVENT') return 'returned an invalid event'
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
 * No action has that name. `code` is `ACTION_NOT_FOUND`.
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
    super('ACTION_NOT_FOUND', action, `No action named "${action}"; defined actions: ${list}`)
  }
}

/**
 * The input did not match the action's input schema; the handler did not run. `code` is `INVALID_ACTION_INPUT`.
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
    super('INVALID_ACTION_INPUT', action, formatIssues(`Invalid input for action "${action}"`, issues))
  }
}

/**
 * The handler returned a value that does not match the action's output schema. `code` is `INVALID_ACTION_OUTPUT`.
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
    super('INVALID_ACTION_OUTPUT', action, formatIssues(`Invalid output from action "${action}"`, issues))
  }
}

/**
 * The handler threw; the thrown value is the `cause`. `code` is `ACTION_FAILED`.
 *
 * @example
 * ```ts
 * catch (error) { if (error instanceof ActionFailedError) console.log(error.cause) }
 * ```
 */
export class ActionFailedError extends ActionError {
  override readonly name = 'ActionFailedError'
  constructor(action: string, eventId: string, cause: unknown) {
    super('ACTION_FAILED', action, `Action "${action}" failed on event ${eventId}: ${describeError(cause)}`, { cause })
  }
}

/**
 * The handler ran past its deadline; its signal was aborted. `code` is `ACTION_TIMEOUT`.
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
    super('ACTION_TIMEOUT', action, `Action "${action}" timed out on event ${eventId} after ${timeoutMs} ms`)
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
