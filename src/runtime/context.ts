import type { Client } from '../client/index.js'
import type { BotEvent, PayloadOf } from '../event/index.js'
import type { DirectionOfPoint, HookPoint } from './hook-points.js'
import type { Logger } from '../logging/index.js'

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

/**
 * The event a hook sees: its direction follows the point, its type and payload follow `types` when given.
 */
export type HookEvent<P extends HookPoint, T extends string> = BotEvent & { direction: DirectionOfPoint<P> } & NarrowType<T>

type NarrowType<T extends string> = string extends T ? unknown : T extends string ? { type: T; payload: PayloadOf<T> } : never
