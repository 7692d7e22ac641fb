import type { StateStore, StateStoreContext, StoredState, StateWrite } from './state-store.js'
import { StateConflictError } from './state-store.js'

interface Entry {
  json: string
  version: number
  expiresAt?: number
}

/** A `StateStore` in memory, with the same versions and conflicts as a durable one: for tests and development. */
export interface MemoryStateStore extends StateStore {
  /**
   * The current value of a key (a copy), or `undefined`.
   *
   * @example
   * ```ts
   * store.peek('conversation:test-bot:conv_1') // { count: 2 }
   * ```
   */
  peek(key: string): unknown
  /** Every key held. */
  keys(): string[]
}

/**
 * A state store in memory: values are kept as JSON (what a durable store would keep), versions and expiry
 * behave as in the table store. Lost when the process ends.
 *
 * @example
 * ```ts
 * const runtime = createRuntime({ hooks, state: { conversation: Session }, stateStore: createMemoryStateStore() })
 * ```
 */
export function createMemoryStateStore(): MemoryStateStore {
  const entries = new Map<string, Entry>()
  return {
    async load(keys: readonly string[], context: StateStoreContext) {
      const found = new Map<string, StoredState>()
      const now = context.now().getTime()
      for (const key of keys) {
        const entry = entries.get(key)
        if (!entry) continue
        const expired = entry.expiresAt !== undefined && entry.expiresAt <= now
        found.set(key, { value: expired ? undefined : JSON.parse(entry.json), version: entry.version })
      }
      return found
    },
    async save(writes: readonly StateWrite[]) {
      const moved = writes.filter((w) => (entries.get(w.key)?.version ?? 0) !== w.expectedVersion).map((w) => w.key)
      if (moved.length > 0) throw new StateConflictError(moved)
      for (const write of writes) {
        entries.set(write.key, {
          json: JSON.stringify(write.value),
          version: write.expectedVersion + 1,
          ...(write.expiresAt ? { expiresAt: write.expiresAt.getTime() } : {}),
        })
      }
    },
    peek(key) {
      const entry = entries.get(key)
      return entry ? JSON.parse(entry.json) : undefined
    },
    keys: () => [...entries.keys()],
  }
}
