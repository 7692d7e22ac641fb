import { Client, type ClientOptions } from '../client/index.js'
import { EventValidationError, parseEvent, safeParseEvent, type BotEvent, type EventTypes } from '../event/index.js'
import { systemClock, type Clock } from '../clock/index.js'
import { openStateSession, type StateChange, type StateSession } from './state/state-session.js'
import { checkStateSchemas, type StateExpiry, type StateSchemas } from './state/state-schemas.js'
import { StateConflictError, type StateStore, type StateStoreContext } from './state/state-store.js'
import { createMemoryStateStore } from './state/memory-state-store.js'
import { toReadableIssues } from '../issues/index.js'
import type { HandlerContext } from './context.js'
import type { ActionInput, ActionOutput, AnyAction } from './define-action.js'
import { checkTimeout, type AnyHook, type StopProcessing } from './define-hook.js'
import {
  ActionFailedError,
  ActionInputError,
  ActionNotFoundError,
  ActionOutputError,
  ActionTimeoutError,
  HookError,
  RuntimeDefinitionError,
  describeError,
} from './errors.js'
import { isBeforePoint, pointsFor, type HookPoint } from './hook-points.js'
import { createJsonLogger, toLogger, type Logger, type LoggerLike } from '../logging/index.js'
import { runWithDeadline, type DeadlineSignal } from './run-with-deadline.js'

/**
 * The runtime's own entry for an event its caller has just validated with `parseEvent`/`safeParseEvent` (the
 * webhook handler), so that it is not validated twice. Internal: not exported from the package.
 */
export const dispatchValidatedEvent: unique symbol = Symbol('botshelf.dispatchValidatedEvent')

/** A runtime that takes already-validated events through `dispatchValidatedEvent`. */
export interface ValidatedDispatch {
  [dispatchValidatedEvent]?: (event: BotEvent) => Promise<DispatchReport>
}

/** Default deadline of a hook or action: 10 seconds. */
export const DEFAULT_TIMEOUT_MS = 10_000

/** Builds the storage client handed to handlers for one event. */
export type ClientFactory = (event: BotEvent) => Client

/** Options of `createRuntime`. */
export interface RuntimeOptions<A extends readonly AnyAction[]> {
  /**
   * Hooks, run in this order within each point.
   * @example `hooks: [tagConversation, auditReplies]`
   */
  hooks?: readonly AnyHook[]
  /**
   * Actions, callable with `runtime.runAction(name, input, { event })`.
   * @example `actions: [saveLead]`
   */
  actions?: A
  /**
   * Storage client options (`token`, `apiUrl`, `fetch`, ...): a client is built per event with the event's
   * `botId`. Or a ready `Client`, handed as is to every handler. Ignored when `clientFactory` is given.
   * Default: `{}`, so the client reads `BP_TOKEN` and `BP_API_URL` from the environment.
   * @example `client: { token: process.env.BP_TOKEN, apiUrl: 'http://127.0.0.1:3000' }`
   */
  client?: Omit<ClientOptions, 'botId'> | Client
  /**
   * Decides how the client of an event is built (hosts and tests). Called at most once per dispatch or action
   * run, when a handler first reads `client`.
   * @example `clientFactory: (event) => new Client({ token, botId: event.botId, fetch: app.fetch })`
   */
  clientFactory?: ClientFactory
  /**
   * Logger handed to handlers, bound to the event id and the hook or action name. Default: JSON lines on
   * standard error.
   * @example `logger: createJsonLogger({ level: 'debug' })`
   */
  logger?: LoggerLike
  /**
   * Deadline of hooks and actions without their own `timeoutMs`. Default 10 000 ms.
   * @example `defaultTimeoutMs: 2_000`
   */
  defaultTimeoutMs?: number
  /**
   * Stop at the first hook that fails or times out; later hooks are reported `skipped`. Default `false`: each
   * hook runs whatever the others did.
   * @example `failFast: true`
   */
  failFast?: boolean
  /**
   * The runtime's own event types (`defineEventTypes`): their payloads are checked before the hooks run (an invalid
   * one rejects `dispatch` with `EventValidationError`). Other runtimes do not know them.
   * @example `eventTypes: defineEventTypes({ order: OrderSchema })`
   */
  eventTypes?: EventTypes
  /**
   * State schemas by scope (`conversation`, `user`, `bot`), each accepting `{}`. Hooks read and change
   * `ctx.state.<scope>`; it is loaded before the hooks and saved after them when no hook failed.
   * @example `state: { conversation: z.object({ turns: z.number().default(0) }) }`
   */
  state?: StateSchemas
  /**
   * Where state is kept. Default: `createMemoryStateStore()` (lost on restart); use `createTableStateStore()` to keep
   * it in a botshelf (or Botpress cloud) table through the event's client.
   * @example `stateStore: createTableStateStore()`
   */
  stateStore?: StateStore
  /**
   * Expiry of each scope's state after its last write, in milliseconds.
   * @example `stateExpiresInMs: { conversation: 86_400_000 }`
   */
  stateExpiresInMs?: StateExpiry
  /**
   * How many times an event runs again when its state was changed by another event meanwhile (a lost update
   * detected). Default 3; then `dispatch` rejects with `StateConflictError`.
   * @example `stateRetries: 5`
   */
  stateRetries?: number
  /**
   * The clock of state expiry. Default: the system clock.
   * @example `now: clock.now`
   */
  now?: Clock
}

/** Why a hook did not run. */
export type SkipReason = 'type' | 'stopped' | 'failFast'

/** What happened to one hook during a dispatch. */
export interface HookReport {
  readonly hook: string
  readonly point: HookPoint
  readonly status: 'ok' | 'error' | 'timeout' | 'skipped'
  /** Milliseconds spent in the handler (0 when skipped). */
  readonly durationMs: number
  /** Set when `status` is `error` or `timeout`. */
  readonly error?: HookError
  /** Set when `status` is `skipped`. */
  readonly skipReason?: SkipReason
  /** True when this before-hook returned a changed event that was accepted. */
  readonly changedEvent?: boolean
  /** True when this before-hook returned `{ stop: true }`. */
  readonly stopped?: boolean
}

/** One action a hook ran with `ctx.runAction`. */
export interface ActionCall {
  readonly action: string
  /** The hook that called it. */
  readonly hook: string
  readonly input: unknown
  readonly status: 'ok' | 'error'
  /** The validated output, when `status` is `ok`. */
  readonly output?: unknown
  /** The error's code, when `status` is `error`. */
  readonly errorCode?: string
}

/** The result of `runtime.dispatch`. */
export interface DispatchReport {
  /** The event after the changes of before-hooks. */
  readonly event: BotEvent
  /** True when a before-hook returned `{ stop: true }`. */
  readonly stopped: boolean
  /** Name of the hook that stopped processing. */
  readonly stoppedBy?: string
  /** True when no hook failed or timed out. */
  readonly ok: boolean
  /** Every hook whose point matches the event's direction, in the order they were considered. */
  readonly hooks: readonly HookReport[]
  /** Milliseconds for the whole dispatch. */
  readonly durationMs: number
  /** Actions hooks ran with `ctx.runAction`, in order (of the last attempt). */
  readonly actions: readonly ActionCall[]
  /** State scopes whose value changed (`saved` false when a hook failed, so nothing was written). */
  readonly state: readonly StateChange[]
  /** How many times the hooks ran: more than 1 when a state conflict made the event run again. */
  readonly attempts: number
}

/** Options of `runtime.runAction`. */
export interface RunActionOptions {
  /**
   * The event the action runs for (validated; gives the client its bot and the logger its event id).
   * @example `{ event: report.event }`
   */
  event: unknown
}

/** A runtime: dispatches events through hooks and runs actions. */
export interface Runtime<A extends readonly AnyAction[] = readonly AnyAction[]> {
  /**
   * Validates an event (throws `EventValidationError` when invalid) and runs the hooks of its direction.
   *
   * @example
   * ```ts
   * const report = await runtime.dispatch(JSON.parse(body))
   * if (!report.ok) console.error(report.hooks.filter((h) => h.error))
   * ```
   */
  dispatch(rawEvent: unknown): Promise<DispatchReport>
  /**
   * Runs an action: validates the event and the input, runs the handler under its deadline, validates the
   * output. Throws `ActionNotFoundError`, `EventValidationError`, `ActionInputError`, `ActionFailedError`,
   * `ActionTimeoutError` or `ActionOutputError`.
   *
   * @example
   * ```ts
   * const { sum } = await runtime.runAction('add', { a: 1, b: 2 }, { event })
   * ```
   */
  runAction<N extends A[number]['name']>(
    name: N,
    input: ActionInput<Extract<A[number], { name: N }>>,
    options: RunActionOptions,
  ): Promise<ActionOutput<Extract<A[number], { name: N }>>>
  /** Names of the hooks, in registration order. */
  readonly hookNames: readonly string[]
  /** Names of the actions, in registration order. */
  readonly actionNames: readonly string[]
}

/**
 * Creates a runtime from hooks and actions. Throws `RuntimeDefinitionError` when two hooks or two actions share
 * a name.
 *
 * Incoming events go through `beforeIncoming`, `afterIncoming`, then `afterTurn`; outgoing events through
 * `beforeOutgoing` then `afterOutgoing`. `{ stop: true }` skips the rest of the direction's hooks but not
 * `afterTurn`, which closes every incoming turn.
 *
 * @example
 * ```ts
 * const runtime = createRuntime({ hooks: [tagConversation], actions: [saveLead], client: { token } })
 * const report = await runtime.dispatch(event)
 * ```
 */
export function createRuntime<const A extends readonly AnyAction[] = readonly []>(options: RuntimeOptions<A> = {}): Runtime<A> {
  const hooks = [...(options.hooks ?? [])]
  const actions = [...(options.actions ?? [])] as AnyAction[]
  checkUnique('hook', hooks.map((h) => h.name))
  checkUnique('action', actions.map((a) => a.name))
  checkTimeout('createRuntime', options.defaultTimeoutMs)
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS
  const failFast = options.failFast ?? false
  const rootLogger = options.logger ? toLogger(options.logger) : createJsonLogger()
  const buildClient = clientBuilder(options)
  const actionsByName = new Map(actions.map((a) => [a.name, a]))
  checkStateSchemas(options.state)
  const stateSchemas = options.state && Object.keys(options.state).length > 0 ? options.state : undefined
  const stateStore = options.stateStore ?? (stateSchemas ? createMemoryStateStore() : undefined)
  const stateRetries = options.stateRetries ?? 3
  if (!Number.isInteger(stateRetries) || stateRetries < 0) {
    throw new RuntimeDefinitionError('INVALID_STATE', `createRuntime: stateRetries must be a whole number ≥ 0, received ${String(stateRetries)}`)
  }
  const now = options.now ?? systemClock
  const eventTypes = options.eventTypes

  // The client and the logger are getters so that they are built only when a handler reads them; never spread
  // this object (that would read the getters).
  const contextFor = <X extends object>(
    event: BotEvent,
    bindings: Record<string, string>,
    clientCache: { client?: Client },
    deadline: DeadlineSignal,
    extra: X,
  ): HandlerContext & X => {
    // The logger, like the client, is made when a handler first reads it: most hooks never log.
    let logger: Logger | undefined
    return Object.assign(
      {
        event,
        get logger(): Logger {
          logger ??= rootLogger.child({ eventId: event.id, ...bindings })
          return logger
        },
        get signal(): AbortSignal {
          return deadline.signal
        },
        get client(): Client {
          clientCache.client ??= buildClient(event)
          return clientCache.client
        },
      },
      extra,
    )
  }

  // Failures are in the report, and also logged: behind a webhook nobody may read the report.
  const logFailure = (event: BotEvent, hook: string, point: HookPoint, error: HookError): void => {
    rootLogger.child({ eventId: event.id, hook, point }).error(error.message, { code: error.code })
  }

  function dispatch(rawEvent: unknown): Promise<DispatchReport> {
    const started = performance.now()
    let event: BotEvent
    try {
      event = parseEvent(rawEvent)
    } catch (error) {
      return Promise.reject(error)
    }
    return dispatchValid(event, started)
  }

  async function dispatchValid(validEvent: BotEvent, started: number): Promise<DispatchReport> {
    if (eventTypes) {
      const issues = eventTypes.payloadIssues(validEvent)
      if (issues.length > 0) throw new EventValidationError(issues)
    }
    const clientCache: { client?: Client } = {}
    if (!stateSchemas || !stateStore) return runHooks(validEvent, started, clientCache, undefined, 1)
    const storeContext: StateStoreContext = {
      client: () => (clientCache.client ??= buildClient(validEvent)),
      now,
    }
    for (let attempt = 1; ; attempt++) {
      const session = await openStateSession(validEvent, stateSchemas, stateStore, storeContext, options.stateExpiresInMs ?? {}, () =>
        rootLogger.child({ eventId: validEvent.id }),
      )
      const report = await runHooks(validEvent, started, clientCache, session, attempt)
      if (!report.ok) return { ...report, state: session.changes(false) }
      try {
        return { ...report, state: await session.save() }
      } catch (error) {
        if (!(error instanceof StateConflictError) || attempt > stateRetries) throw error
        rootLogger.child({ eventId: validEvent.id }).info('state changed by another event; running the event again', { attempt, keys: error.keys })
      }
    }
  }

  async function runHooks(
    validEvent: BotEvent,
    started: number,
    clientCache: { client?: Client },
    session: StateSession | undefined,
    attempts: number,
  ): Promise<DispatchReport> {
    let event = validEvent
    const direction = event.direction
    const calls: ActionCall[] = []
    const stateValues = session?.values ?? {}
    const reports: HookReport[] = []
    let stoppedBy: string | undefined
    let failed = false

    for (const point of pointsFor(direction)) {
      for (const hook of hooks) {
        if (hook.point !== point) continue
        const skip: HookReport | undefined =
          failed && failFast
            ? skipped(hook, 'failFast')
            : stoppedBy !== undefined && point !== 'afterTurn'
              ? skipped(hook, 'stopped')
              : hook.types !== undefined && !hook.types.includes(event.type)
                ? skipped(hook, 'type')
                : undefined
        if (skip) {
          reports.push(skip)
          continue
        }
        const timeoutMs = hook.timeoutMs ?? defaultTimeoutMs
        const current = event
        const outcome = await runWithDeadline(
          (deadline) =>
            hook.handler(
              contextFor(current, { hook: hook.name, point }, clientCache, deadline, {
                state: stateValues,
                runAction: (name: string, input: unknown) => runActionFromHook(current, hook.name, name, input, clientCache, calls),
              }) as never,
            ),
          timeoutMs,
        )
        const base = { hook: hook.name, point, durationMs: outcome.durationMs }
        if (outcome.status === 'timeout') {
          failed = true
          const error = new HookError('HOOK_TIMEOUT', hook.name, point, current.id, `no answer within ${timeoutMs} ms`)
          logFailure(current, hook.name, point, error)
          reports.push({ ...base, status: 'timeout', error })
          continue
        }
        if (outcome.status === 'error') {
          failed = true
          const error = new HookError('HOOK_FAILED', hook.name, point, current.id, describeError(outcome.error), { cause: outcome.error })
          logFailure(current, hook.name, point, error)
          reports.push({ ...base, status: 'error', error })
          continue
        }
        const result: unknown = outcome.value
        if (!isBeforePoint(point) || result === undefined || result === null) {
          reports.push({ ...base, status: 'ok' })
        } else if (isStop(result)) {
          stoppedBy = hook.name
          reports.push({ ...base, status: 'ok', stopped: true })
        } else {
          const changed = acceptChangedEvent(result, current, hook.name, point)
          if (changed instanceof HookError) {
            failed = true
            logFailure(current, hook.name, point, changed)
            reports.push({ ...base, status: 'error', error: changed })
          } else {
            event = changed
            reports.push({ ...base, status: 'ok', changedEvent: true })
          }
        }
      }
    }

    return {
      event,
      stopped: stoppedBy !== undefined,
      ...(stoppedBy !== undefined ? { stoppedBy } : {}),
      ok: !failed,
      hooks: reports,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      actions: calls,
      state: [],
      attempts,
    }
  }

  async function runActionFromHook(
    event: BotEvent,
    hook: string,
    name: string,
    input: unknown,
    clientCache: { client?: Client },
    calls: ActionCall[],
  ): Promise<unknown> {
    try {
      const output = await runValidAction(name, input, event, clientCache)
      calls.push({ action: name, hook, input, status: 'ok', output })
      return output
    } catch (error) {
      calls.push({ action: name, hook, input, status: 'error', errorCode: (error as { code?: string }).code ?? 'ACTION_FAILED' })
      throw error
    }
  }

  async function runAction(name: string, input: unknown, runOptions: RunActionOptions): Promise<unknown> {
    if (!actionsByName.has(name)) throw new ActionNotFoundError(name, [...actionsByName.keys()])
    return runValidAction(name, input, parseEvent(runOptions?.event), {})
  }

  async function runValidAction(name: string, input: unknown, event: BotEvent, clientCache: { client?: Client }): Promise<unknown> {
    const action = actionsByName.get(name)
    if (!action) throw new ActionNotFoundError(name, [...actionsByName.keys()])
    const parsedInput = await action.input.safeParseAsync(input)
    if (!parsedInput.success) throw new ActionInputError(name, toReadableIssues(parsedInput.error.issues, input))
    const timeoutMs = action.timeoutMs ?? defaultTimeoutMs
    const outcome = await runWithDeadline(
      (deadline) => action.handler(contextFor(event, { action: name }, clientCache, deadline, { input: parsedInput.data }) as never),
      timeoutMs,
    )
    if (outcome.status === 'timeout') throw new ActionTimeoutError(name, event.id, timeoutMs)
    if (outcome.status === 'error') throw new ActionFailedError(name, event.id, outcome.error)
    const parsedOutput = await action.output.safeParseAsync(outcome.value)
    if (!parsedOutput.success) throw new ActionOutputError(name, toReadableIssues(parsedOutput.error.issues, outcome.value))
    return parsedOutput.data
  }

  return Object.freeze({
    dispatch,
    [dispatchValidatedEvent]: (event: BotEvent) => dispatchValid(event, performance.now()),
    runAction: runAction as Runtime<A>['runAction'],
    hookNames: Object.freeze(hooks.map((h) => h.name)),
    actionNames: Object.freeze(actions.map((a) => a.name)),
  })
}

function skipped(hook: AnyHook, skipReason: SkipReason): HookReport {
  return { hook: hook.name, point: hook.point, status: 'skipped', durationMs: 0, skipReason }
}

function isStop(value: unknown): value is StopProcessing {
  return typeof value === 'object' && value !== null && (value as { stop?: unknown }).stop === true && !('id' in value)
}

function acceptChangedEvent(result: unknown, current: BotEvent, hook: string, point: HookPoint): BotEvent | HookError {
  const parsed = safeParseEvent(result)
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => i.message).join('; ')
    return new HookError('HOOK_INVALID_EVENT', hook, point, current.id, detail, { cause: parsed.error })
  }
  for (const field of ['id', 'botId', 'direction'] as const) {
    if (parsed.event[field] !== current[field]) {
      return new HookError(
        'HOOK_INVALID_EVENT',
        hook,
        point,
        current.id,
        `${field}: expected ${JSON.stringify(current[field])} (a hook may not change it), received ${JSON.stringify(parsed.event[field])}`,
      )
    }
  }
  return parsed.event
}

function checkUnique(kind: 'hook' | 'action', names: readonly string[]): void {
  const seen = new Set<string>()
  for (const name of names) {
    if (seen.has(name)) {
      throw new RuntimeDefinitionError(
        kind === 'hook' ? 'DUPLICATE_HOOK_NAME' : 'DUPLICATE_ACTION_NAME',
        `Two ${kind}s are named "${name}"; ${kind} names must be unique`,
      )
    }
    seen.add(name)
  }
}

function clientBuilder<A extends readonly AnyAction[]>(options: RuntimeOptions<A>): ClientFactory {
  if (options.clientFactory) return options.clientFactory
  const client = options.client
  if (client instanceof Client) return () => client
  const clientOptions: Omit<ClientOptions, 'botId'> = { ...(client ?? {}) }
  return (event) => new Client({ ...clientOptions, botId: event.botId })
}

