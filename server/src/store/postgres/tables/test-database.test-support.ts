import postgres from 'postgres'
import type { Clock } from '../../clock.js'
import type { TablesPort } from '../../tables/tables-port.js'
import { postgresTablesMigrations } from './migrations.js'
import { createPostgresTablesPort } from './tables-port.js'
import { realPostgresDatabase } from '../search/test-databases.test-support.js'

/** A test database: created fresh for one test file, dropped at its end. */
export interface TestDatabase {
  /** Its URL. */
  url: string
  /** A fresh, migrated schema of the database with a tables port on it (a pool of its own); `close` drops it. */
  openTables(now: Clock): Promise<{ tables: TablesPort; sql: postgres.Sql; close(): Promise<void> }>
  /** Drops the database (after every pool on it has ended). */
  drop(): Promise<void>
}

/**
 * Creates the database `botshelf_t_<random>` for one test file. Each `openTables` makes a schema of its own
 * (`s_<random>`) with the tables migrations run in it and a pool whose `search_path` is that schema, so the
 * port's unqualified names resolve there: tests never share rows, and the port is checked to work outside
 * `public`.
 *
 * @example
 * ```ts
 * const db = await createTestDatabase()
 * const { tables, close } = await db.openTables(() => new Date())
 * await close(); await db.drop()
 * ```
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const database = await realPostgresDatabase()
  return {
    url: database.url,
    async openTables(now) {
      const { sql, close } = await database.openSchema()
      try {
        for (const migration of postgresTablesMigrations) await sql.begin((tx) => migration.up(tx))
      } catch (error) {
        await close()
        throw error
      }
      return { tables: createPostgresTablesPort(sql, { now }), sql, close }
    },
    drop: () => database.drop(),
  }
}
