import type { Client } from '../../client/index.js'
import { isApiError } from '../../client/index.js'
import type { StateStore, StateStoreContext, StoredState, StateWrite } from './state-store.js'
import { StateConflictError } from './state-store.js'

/** Options of `createTableStateStore`. */
export interface TableStateStoreOptions {
  /**
   * The table that holds the state (created on first use). Default `botshelfStateTable`.
   * @example `{ table: 'supportBotStateTable' }`
   */
  table?: string
}

/** The default table of `createTableStateStore`. */
export const DEFAULT_STATE_TABLE = 'botshelfStateTable'

// One row per version of a key. `slot` ("<key>#<version>") is the table's key column, so its unique index refuses a
// second row for the same version: two events that loaded version n both try to create "<key>#<n+1>", one wins,
// the other gets `AlreadyExists` (a lost update, detected). Only create, find and delete-by-ids are used: the
// operations botshelf and the Botpress cloud tables API both have, with the same meaning.
const schema = {
  type: 'object',
  properties: {
    slot: { type: 'string' },
    stateKey: { type: 'string' },
    version: { type: 'number' },
    value: { type: 'object' },
    expiresAt: { type: 'string', format: 'date-time' },
  },
}

interface StateRow {
  id: number
  stateKey: string
  version: number
  value: unknown
  expiresAt?: string | null
}

/**
 * A `StateStore` over the storage client: a botshelf table (or a Botpress cloud table) per bot, one row per
 * version, old versions deleted after each write. Works through `Client`, so against botshelf and the Botpress
 * cloud alike.
 *
 * @example
 * ```ts
 * const runtime = bot.createRuntime({ client: { token, apiUrl }, stateStore: createTableStateStore() })
 * ```
 */
export function createTableStateStore(options: TableStateStoreOptions = {}): StateStore {
  const table = options.table ?? DEFAULT_STATE_TABLE
  // The table is made once per client (one client per bot).
  const ready = new WeakMap<Client, Promise<unknown>>()
  const ensureTable = (client: Client): Promise<unknown> => {
    let pending = ready.get(client)
    if (!pending) {
      pending = client.getOrCreateTable({ table, schema, keyColumn: 'slot' } as never)
      pending.catch(() => ready.delete(client))
      ready.set(client, pending)
    }
    return pending
  }

  return {
    async load(keys: readonly string[], context: StateStoreContext) {
      const found = new Map<string, StoredState>()
      if (keys.length === 0) return found
      const client = context.client()
      await ensureTable(client)
      const { rows } = await client.findTableRows({
        table,
        filter: { stateKey: { $in: [...keys] } },
        orderBy: 'version',
        orderDirection: 'desc',
        limit: 1000,
      })
      const now = context.now().getTime()
      for (const row of rows as unknown as StateRow[]) {
        if (found.has(row.stateKey)) continue
        const expired = typeof row.expiresAt === 'string' && Date.parse(row.expiresAt) <= now
        found.set(row.stateKey, { value: expired ? undefined : row.value, version: row.version, ref: row.id })
      }
      return found
    },

    async save(writes: readonly StateWrite[], context: StateStoreContext) {
      if (writes.length === 0) return
      const client = context.client()
      await ensureTable(client)
      const rows = writes.map((write) => ({
        slot: `${write.key}#${write.expectedVersion + 1}`,
        stateKey: write.key,
        version: write.expectedVersion + 1,
        value: write.value,
        ...(write.expiresAt ? { expiresAt: write.expiresAt.toISOString() } : {}),
      }))
      let created: StateRow[]
      try {
        const answer = await client.createTableRows({ table, rows })
        created = answer.rows as unknown as StateRow[]
        if ((answer.errors?.length ?? 0) > 0 || created.length !== rows.length) {
          // A service that writes rows one by one (partial success): undo what was written, then report the conflict.
          if (created.length > 0) await client.deleteTableRows({ table, ids: created.map((row) => row.id) })
          const written = new Set(created.map((row) => row.stateKey))
          throw new StateConflictError(writes.filter((w) => !written.has(w.key)).map((w) => w.key))
        }
      } catch (error) {
        if (isApiError(error) && error.type === 'AlreadyExists') throw new StateConflictError(writes.map((w) => w.key))
        throw error
      }
      // The versions replaced are no longer read (the newest wins); removing them keeps one row per key.
      const replaced = writes.map((w) => w.ref).filter((ref): ref is number => typeof ref === 'number')
      if (replaced.length > 0) await client.deleteTableRows({ table, ids: replaced }).catch(() => undefined)
    },
  }
}
