import type { Client } from '../client/index.js'
import type { BotEvent, EventTypeRegistry, PayloadOf, PayloadSchemas, TypesOf } from '../event/index.js'
import type { DirectionOfPoint, HookPoint } from './hook-points.js'
import type { Logger } from '../logging/index.js'
import type { ActionInput, ActionOutput, AnyAction } from './define-action.js'
import type { StateSchemas, StateValues } from './state/index.js'

/** What every hook and action handler receives besides its own inputs. */
export interface HandlerContext<E extends BotEvent = BotEvent> {
  /** The validated event (after the changes of earlier before-hooks). */
  readonly event: E
  /**
   * A storage client for the event's bot, built on first use (see `createRuntime`'s `client` and
   * `clientFactory`).
   */
  readonly client: Client
  /** A logger bound to the event id and the hook or action name. */
  readonly logger: Logger
  /** Aborted when the handler runs past its deadline: pass it to `fetch` and other cancellable work. */
  readonly signal: AbortSignal
}

/** The types a bot is made of: its own event types, its actions and its state schemas (see `defineBot`). */
export interface BotTypes {
  readonly eventTypes: PayloadSchemas
  readonly actions: readonly AnyAction[]
  readonly state: StateSchemas
}

/** The types of hooks defined outside a bot (`defineHook`): built-in event types, any action, no state. */
export interface AnyBotTypes extends BotTypes {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  readonly eventTypes: {}
  readonly actions: readonly AnyAction[]
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  readonly state: {}
}

/**
 * `ctx.runAction` of a hook: typed by the bot's actions (an unknown name or a wrong input does not compile); untyped
 * (`string`, `unknown`) for hooks defined outside a bot.
 */
export type RunActionFromHook<A extends readonly AnyAction[]> = string extends A[number]['name']
  ? (name: string, input: unknown) => Promise<unknown>
  : <N extends A[number]['name']>(name: N, input: ActionInput<Extract<A[number], { name: N }>>) => Promise<ActionOutput<Extract<A[number], { name: N }>>>

/** What a hook handler receives: the handler context, the bot's state and `runAction`. */
export interface HookContext<E extends BotEvent = BotEvent, B extends BotTypes = AnyBotTypes> extends HandlerContext<E> {
  /**
   * Runs one of the runtime's actions for this event (same client, logger bindings and deadline rules as
   * `runtime.runAction`); recorded in the dispatch report.
   */
  readonly runAction: RunActionFromHook<B['actions']>
  /**
   * The state of the event's conversation, user and bot, as declared: loaded before the hooks, saved after them when
   * no hook failed. Change it in place or assign a new value.
   */
  readonly state: StateValues<B['state']>
}

/**
 * The event a hook sees: its direction follows the point, its type and payload follow `types` when given.
 */
export type HookEvent<P extends HookPoint, T extends string, R extends object = EventTypeRegistry> = BotEvent & {
  direction: DirectionOfPoint<P>
} & NarrowType<T, R>

type NarrowType<T extends string, R extends object> = [T] extends [never]
  ? unknown
  : string extends T
    ? unknown
    : T extends string
      ? { type: T; payload: PayloadOf<T, R> }
      : never

/** The registry of payload types of a bot's hooks. */
export type RegistryOf<B extends BotTypes> = TypesOf<B['eventTypes']>
