import type { BotEvent } from '../event/index.js'
import type { HandlerContext, HookEvent } from './context.js'
import { RuntimeDefinitionError } from './errors.js'
import { hookPoints, isHookPoint, type BeforePoint, type HookPoint } from './hook-points.js'

/** What a before-hook returns to end processing of the event: later hooks are skipped. */
export interface StopProcessing {
  stop: true
}

/**
 * What a handler at point `P` may return: before-hooks may return a changed event (validated again) or
 * `{ stop: true }`; other hooks return nothing.
 */
export type HookResult<P extends HookPoint> = P extends BeforePoint ? BotEvent | StopProcessing | void : void

/** The fields of `defineHook`. */
export interface HookDefinition<P extends HookPoint = HookPoint, T extends string = string> {
  /**
   * Unique name among the runtime's hooks; appears in reports, errors and logs.
   * @example `name: 'tag-conversation'`
   */
  readonly name: string
  /**
   * Where the hook runs.
   * @example `point: 'beforeIncoming'`
   */
  readonly point: P
  /**
   * Event types the hook handles; other types are reported `skipped`. All types when omitted. Narrows
   * `event.payload` in the handler.
   * @example `types: ['text', 'markdown']`
   */
  readonly types?: readonly T[]
  /**
   * Deadline in milliseconds; defaults to the runtime's `defaultTimeoutMs`.
   * @example `timeoutMs: 2_000`
   */
  readonly timeoutMs?: number
  /**
   * The hook's code. Before-hooks may return a changed event or `{ stop: true }`.
   * @example `handler: ({ event, logger }) => logger.info('seen', { id: event.id })`
   */
  handler(context: HandlerContext<HookEvent<P, T>>): HookResult<P> | Promise<HookResult<P>>
}

/** A defined hook (frozen). */
export interface Hook<P extends HookPoint = HookPoint, T extends string = string> extends HookDefinition<P, T> {
  readonly kind: 'hook'
}

/**
 * Any hook, whatever its point and types (what `createRuntime` takes). The handler's parameter is `never` so that
 * hooks narrowed by `types` fit too; the runtime builds the right context for each.
 */
export interface AnyHook {
  readonly kind: 'hook'
  readonly name: string
  readonly point: HookPoint
  readonly types?: readonly string[]
  readonly timeoutMs?: number
  handler(context: never): unknown
}

/**
 * Defines a hook. The handler receives `{ event, client, logger, signal }`; `event` is narrowed by the point's
 * direction and by `types`. Throws `RuntimeDefinitionError` for an empty name, an unknown point, empty `types`
 * or a bad timeout.
 *
 * @example
 * ```ts
 * const logText = defineHook({
 *   name: 'log-text',
 *   point: 'afterIncoming',
 *   types: ['text'],
 *   handler: ({ event, logger }) => logger.info('user said', { text: event.payload.text }),
 * })
 * ```
 */
export function defineHook<const P extends HookPoint, const T extends string = string>(
  definition: HookDefinition<P, T>,
): Hook<P, T> {
  const { name, point, types, timeoutMs, handler } = definition as HookDefinition<P, T> & { point: unknown }
  checkName('hook', name)
  if (!isHookPoint(point)) {
    throw new RuntimeDefinitionError(
      'UNKNOWN_HOOK_POINT',
      `Hook "${name}": point must be ${hookPoints.map((p) => `"${p}"`).join(' | ')}, received ${JSON.stringify(point)}`,
    )
  }
  if (types !== undefined) {
    if (!Array.isArray(types) || types.length === 0 || types.some((t) => typeof t !== 'string' || t === '')) {
      throw new RuntimeDefinitionError('INVALID_HOOK', `Hook "${name}": types must be a non-empty list of type names`)
    }
  }
  checkTimeout(`Hook "${name}"`, timeoutMs)
  if (typeof handler !== 'function') {
    throw new RuntimeDefinitionError('INVALID_HOOK', `Hook "${name}": handler must be a function`)
  }
  return Object.freeze({
    kind: 'hook' as const,
    name,
    point,
    ...(types ? { types: Object.freeze([...types]) } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    handler,
  })
}

/** Throws unless `name` is a non-empty string. */
export function checkName(kind: 'hook' | 'action', name: unknown): asserts name is string {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new RuntimeDefinitionError(
      kind === 'hook' ? 'INVALID_HOOK' : 'INVALID_ACTION',
      `A ${kind} needs a non-empty name, received ${JSON.stringify(name)}`,
    )
  }
}

/** Throws unless `timeoutMs` is undefined or a positive finite number. */
export function checkTimeout(owner: string, timeoutMs: unknown): void {
  if (timeoutMs === undefined) return
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RuntimeDefinitionError(
      'INVALID_TIMEOUT',
      `${owner}: timeoutMs must be a positive number of milliseconds, received ${String(timeoutMs)}`,
    )
  }
}
