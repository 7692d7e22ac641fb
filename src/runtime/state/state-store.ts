import type { Client } from '../../client/index.js'
import type { Clock } from '../../clock/index.js'
import { BotRuntimeError } from '../errors.js'

/** One stored state value and its version (1 for the first write; a store counts up by one per write). */
export interface StoredState {
  /** The value, or `undefined` once it expired (the version is kept, so the next write still checks it). */
  readonly value: unknown
  readonly version: number
  /** Whatever the store needs to find this version again (a row id); opaque to the runtime. */
  readonly ref?: unknown
}

/** A write the runtime asks for: `expectedVersion` is the version it loaded (0 when there was none). */
export interface StateWrite {
  readonly key: string
  readonly value: unknown
  readonly expectedVersion: number
  /** The `ref` of the loaded version. */
  readonly ref?: unknown
  /** When the value stops being returned. */
  readonly expiresAt?: Date
}

/** What a store may use for one event: the event's storage client (made on first use) and the runtime's clock. */
export interface StateStoreContext {
  readonly client: () => Client
  readonly now: Clock
}

/**
 * Where the runtime keeps per-conversation, per-user and per-bot state: a port with optimistic concurrency. `save`
 * writes all or none, and throws `StateConflictError` when any key's version moved since it was loaded (another
 * event wrote it): the runtime then loads again and runs the event again.
 */
export interface StateStore {
  /**
   * The stored state of each key; a key never written is absent from the map.
   *
   * @example
   * ```ts
   * const found = await store.load(['conversation:bot_1:conv_1'], context)
   * ```
   */
  load(keys: readonly string[], context: StateStoreContext): Promise<Map<string, StoredState>>
  /**
   * Writes new versions (`expectedVersion + 1`), all or none.
   *
   * @example
   * ```ts
   * await store.save([{ key, value: { step: 2 }, expectedVersion: 1 }], context)
   * ```
   */
  save(writes: readonly StateWrite[], context: StateStoreContext): Promise<void>
}

/**
 * Another event wrote the state since this one loaded it (a lost update was prevented). `code` is `STATE_CONFLICT`.
 * The runtime retries the event (`stateRetries`) before it gives up with this error.
 *
 * @example
 * ```ts
 * catch (error) { if (error instanceof StateConflictError) console.log(error.keys) }
 * ```
 */
export class StateConflictError extends BotRuntimeError {
  override readonly name = 'StateConflictError'
  constructor(readonly keys: readonly string[]) {
    super('STATE_CONFLICT', `State changed by another event since it was loaded: ${keys.join(', ')}`)
  }
}
