import type { z } from 'zod'
import type { BotEvent } from '../../event/index.js'
import type { Logger } from '../../logging/index.js'
import { toReadableIssues, formatIssues } from '../../issues/index.js'
import { BotRuntimeError } from '../errors.js'
import { stateKey, type StateExpiry, type StateSchemas, type StateScope } from './state-schemas.js'
import type { StateStore, StateStoreContext, StoredState, StateWrite } from './state-store.js'

/** One scope's state before and after an event's hooks. */
export interface StateChange {
  readonly scope: StateScope
  readonly key: string
  readonly before: unknown
  readonly after: unknown
  /** True once written to the store. */
  readonly saved: boolean
}

/** The state of one event: loaded before the hooks, saved after them. */
export interface StateSession {
  /** The object handed to hooks as `ctx.state` (a value per scope; assign or change in place). */
  readonly values: Record<string, unknown>
  /** The scopes whose value changed. */
  changes(saved: boolean): StateChange[]
  /** Validates and writes the changed values (all or none); throws `StateConflictError` on a lost update. */
  save(): Promise<StateChange[]>
}

interface Slot {
  scope: StateScope
  key: string
  schema: z.ZodType
  loaded?: StoredState
  beforeJson: string
  value: unknown
}

/**
 * Loads the state of every declared scope the event has (one store call) and returns the session hooks change.
 *
 * @example
 * ```ts
 * const session = await openStateSession(event, schemas, store, context, {}, logger)
 * ```
 */
export async function openStateSession(
  event: BotEvent,
  schemas: StateSchemas,
  store: StateStore,
  context: StateStoreContext,
  expiry: StateExpiry,
  logger: () => Logger,
): Promise<StateSession> {
  const slots = new Map<StateScope, Slot>()
  for (const [scope, schema] of Object.entries(schemas) as Array<[StateScope, z.ZodType]>) {
    const key = stateKey(scope, event)
    if (key !== undefined) slots.set(scope, { scope, key, schema, beforeJson: '', value: undefined })
  }
  const found = await store.load([...slots.values()].map((s) => s.key), context)
  for (const slot of slots.values()) {
    const stored = found.get(slot.key)
    if (stored) slot.loaded = stored
    let parsed = stored?.value === undefined ? undefined : slot.schema.safeParse(stored.value)
    if (parsed && !parsed.success) {
      // The schema changed since the value was written: start again from the empty state rather than fail every event.
      logger().warn('stored state does not match its schema; starting from {}', { scope: slot.scope, key: slot.key })
      parsed = undefined
    }
    slot.value = parsed ? parsed.data : slot.schema.parse({})
    slot.beforeJson = JSON.stringify(slot.value)
  }

  const values: Record<string, unknown> = {}
  for (const scope of Object.keys(schemas) as StateScope[]) {
    Object.defineProperty(values, scope, {
      enumerable: true,
      get() {
        return slotOf(scope).value
      },
      set(next: unknown) {
        slotOf(scope).value = next
      },
    })
  }
  const slotOf = (scope: StateScope): Slot => {
    const slot = slots.get(scope)
    if (!slot) {
      throw new BotRuntimeError(
        'STATE_UNAVAILABLE',
        `ctx.state.${scope}: event ${event.id} has no ${scope === 'user' ? 'userId' : 'conversationId'}, so it has no ${scope} state`,
      )
    }
    return slot
  }
  const changed = (): Slot[] => [...slots.values()].filter((slot) => JSON.stringify(slot.value) !== slot.beforeJson)
  const describe = (slot: Slot, saved: boolean): StateChange => ({
    scope: slot.scope,
    key: slot.key,
    before: JSON.parse(slot.beforeJson),
    after: JSON.parse(JSON.stringify(slot.value)),
    saved,
  })

  return {
    values,
    changes: (saved) => changed().map((slot) => describe(slot, saved)),
    async save() {
      const dirty = changed()
      const writes: StateWrite[] = []
      for (const slot of dirty) {
        const checked = slot.schema.safeParse(slot.value)
        if (!checked.success) {
          throw new BotRuntimeError(
            'INVALID_STATE_VALUE',
            formatIssues(`ctx.state.${slot.scope} does not match its schema; nothing was saved`, toReadableIssues(checked.error.issues, slot.value)),
          )
        }
        const ttl = expiry[slot.scope]
        writes.push({
          key: slot.key,
          value: checked.data,
          expectedVersion: slot.loaded?.version ?? 0,
          ...(slot.loaded?.ref !== undefined ? { ref: slot.loaded.ref } : {}),
          ...(ttl !== undefined ? { expiresAt: new Date(context.now().getTime() + ttl) } : {}),
        })
      }
      await store.save(writes, context)
      return dirty.map((slot) => describe(slot, true))
    },
  }
}
