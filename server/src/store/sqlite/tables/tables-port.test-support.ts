import { runMigrations } from '../migrations.js'
import { openDatabase, type Sqlite } from '../connect.js'
import { tablesMigrations } from './migrations.js'
import { SqliteTablesStore } from './tables-port.js'

/**
 * A tables store on a fresh in-memory database whose clock starts at 2026-01-01 and moves one second per reading,
 * so every write has its own timestamp. Test support: left out of the build.
 *
 * @example
 * ```ts
 * beforeEach(() => ({ db, store } = openTestTablesStore()))
 * ```
 */
export function openTestTablesStore(): { db: Sqlite; store: SqliteTablesStore } {
  const db = openDatabase(':memory:')
  runMigrations(db, tablesMigrations)
  let clock = Date.parse('2026-01-01T00:00:00Z')
  return { db, store: new SqliteTablesStore(db, { now: () => new Date((clock += 1000)) }) }
}

/** A full JSON-schema table of people: one column of every kind, `name` required and searchable. */
export const peopleSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', 'x-zui': { searchable: true } },
    age: { type: 'number' },
    email: { type: 'string' },
    active: { type: 'boolean' },
    born: { type: 'string', format: 'date-time' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['name'],
}
