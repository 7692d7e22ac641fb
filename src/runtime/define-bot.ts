import { defineEventTypes, type EventTypes, type PayloadSchemas, type TypeNameOf } from '../event/index.js'
import type { BotTypes } from './context.js'
import { createRuntime, type Runtime, type RuntimeOptions } from './create-runtime.js'
import type { AnyAction } from './define-action.js'
import { makeHook, type Hook, type HookDefinition } from './define-hook.js'
import type { HookPoint } from './hook-points.js'
import { checkStateSchemas, type StateSchemas } from './state/state-schemas.js'

/** The fields of `defineBot`. */
export interface BotSpec<S extends PayloadSchemas, A extends readonly AnyAction[], St extends StateSchemas> {
  /**
   * The bot's own event types (`defineEventTypes`), besides the built-in ones.
   * @example `eventTypes: defineEventTypes({ order: z.object({ orderId: z.string() }) })`
   */
  eventTypes?: EventTypes<S>
  /**
   * The bot's actions: `ctx.runAction` in its hooks and `runtime.runAction` are typed by them.
   * @example `actions: [saveLead]`
   */
  actions?: A
  /**
   * State schemas by scope, each accepting `{}`: `ctx.state.conversation`, `.user`, `.bot` in its hooks.
   * @example `state: { conversation: z.object({ turns: z.number().default(0) }) }`
   */
  state?: St
}

/** A bot's types in one object: define its hooks with them, then make its runtime. */
export interface Bot<B extends BotTypes> {
  readonly eventTypes: EventTypes<B['eventTypes']>
  readonly actions: B['actions']
  readonly state: B['state']
  /**
   * `defineHook` with the bot's types: `types` takes built-in and the bot's own type names, `ctx.runAction` its
   * actions, `ctx.state` its state.
   *
   * @example
   * ```ts
   * const count = bot.defineHook({ name: 'count', point: 'afterIncoming', handler: ({ state }) => void state.conversation.turns++ })
   * ```
   */
  defineHook<const P extends HookPoint, const T extends TypeNameOf<B['eventTypes']> = never>(definition: HookDefinition<P, T, B>): Hook<P, T, B>
  /**
   * A runtime for these hooks with the bot's event types, actions and state.
   *
   * @example
   * ```ts
   * const runtime = bot.createRuntime({ hooks: [count], stateStore: createTableStateStore() })
   * ```
   */
  createRuntime(options?: Omit<RuntimeOptions<B['actions']>, 'actions' | 'eventTypes' | 'state'>): Runtime<B['actions']>
}

/**
 * Gathers a bot's event types, actions and state schemas, so that its hooks are typed by them (unknown type names,
 * unknown actions, wrong action inputs and wrong state values do not compile) and its runtime gets them all.
 * Throws `RuntimeDefinitionError` for a state schema that does not accept `{}`.
 *
 * @example
 * ```ts
 * const bot = defineBot({ actions: [saveLead], state: { conversation: z.object({ turns: z.number().default(0) }) } })
 * const hook = bot.defineHook({
 *   name: 'lead', point: 'afterIncoming', types: ['text'],
 *   handler: async ({ event, state, runAction }) => {
 *     state.conversation.turns += 1
 *     if (event.payload.text.includes('@')) await runAction('saveLead', { email: event.payload.text })
 *   },
 * })
 * const runtime = bot.createRuntime({ hooks: [hook] })
 * ```
 */
export function defineBot<
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  const S extends PayloadSchemas = {},
  const A extends readonly AnyAction[] = readonly [],
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  const St extends StateSchemas = {},
>(spec: BotSpec<S, A, St> = {}): Bot<{ eventTypes: S; actions: A; state: St }> {
  checkStateSchemas(spec.state)
  const eventTypes = spec.eventTypes ?? (defineEventTypes({}) as unknown as EventTypes<S>)
  const actions = (spec.actions ?? []) as unknown as A
  const state = (spec.state ?? {}) as St
  return Object.freeze({
    eventTypes,
    actions,
    state,
    defineHook: (definition) => makeHook(definition),
    createRuntime: (options = {}) => createRuntime<A>({ ...options, actions, eventTypes: eventTypes as unknown as EventTypes, state }),
  } satisfies Bot<{ eventTypes: S; actions: A; state: St }>)
}
