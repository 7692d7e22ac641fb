import type { RegisteredEventType } from '../event/index.js'
import type { AnyBotTypes, BotTypes, HookContext, HookEvent, RegistryOf } from './context.js'
import { RuntimeDefinitionError } from './errors.js'
import { hookPoints, isHookPoint, type BeforePoint, type HookPoint } from './hook-points.js'

/** What a before-hook returns to end processing of the event: later hooks are skipped. */
export interface StopProcessing {
  stop: true
}

/**
 * What a handler at point `P` may return: before-hooks may return a changed event of their own narrowed type (a
 * payload that breaks the type does not compile; it is validated again at runtime) or `{ stop: true }`; other hooks
 * return nothing.
 */
export type HookResult<P extends HookPoint, E = HookEvent<P, never>> = P extends BeforePoint ? E | StopProcessing | void : void

/** The fields of `defineHook`. */
export interface HookDefinition<P extends HookPoint = HookPoint, T extends string = never, B extends BotTypes = AnyBotTypes> {
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
   * Event types the hook handles (registered names only: a typo does not compile); other types are reported
   * `skipped`. All types when omitted. Narrows `event.payload` in the handler.
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
  handler(
    context: HookContext<HookEvent<P, T, RegistryOf<B>>, B>,
  ): HookResult<P, HookEvent<P, T, RegistryOf<B>>> | Promise<HookResult<P, HookEvent<P, T, RegistryOf<B>>>>
}

/** A defined hook (frozen). */
export interface Hook<P extends HookPoint = HookPoint, T extends string = never, B extends BotTypes = AnyBotTypes> extends HookDefinition<P, T, B> {
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
 * Defines a hook. The handler receives `{ event, client, logger, signal, runAction, state }`; `event` is narrowed by
 * the point's direction and by `types` (built-in and augmented type names; for a bot's own types and typed
 * `runAction`/`state`, use `defineBot(...).defineHook`). Throws `RuntimeDefinitionError` for an empty name, an unknown point, empty `types`
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
export function defineHook<const P extends HookPoint, const T extends RegisteredEventType = never>(
  definition: HookDefinition<P, T>,
): Hook<P, T> {
  return makeHook(definition)
}

/** `defineHook` for any bot's types (what `bot.defineHook` calls). */
export function makeHook<P extends HookPoint, T extends string, B extends BotTypes>(definition: HookDefinition<P, T, B>): Hook<P, T, B> {
  const { name, point, types, timeoutMs, handler } = definition as HookDefinition<P, T, B> & { point: unknown }
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
