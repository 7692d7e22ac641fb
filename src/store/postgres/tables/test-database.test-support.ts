import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import type { Clock } from '../../clock.js'
import type { TablesPort } from '../../tables/tables-port.js'
import { postgresTablesMigrations } from './migrations.js'
import { createPostgresTablesPort } from './tables-port.js'

/** The server the tests use; `BOTSHELF_TEST_POSTGRES_URL` points elsewhere (its database is the admin one). */
const ADMIN_URL = process.env['BOTSHELF_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres'

/** A test database: created fresh for one test file, dropped at its end. */
export interface TestDatabase {
  /** Its URL. */
  url: string
  /** A fresh, migrated schema of the database with a tables port on it (a pool of its own); `close` drops it. */
  openTables(now: Clock): Promise<{ tables: TablesPort; sql: postgres.Sql; close(): Promise<void> }>
  /** Drops the database (after every pool on it has ended). */
  drop(): Promise<void>
}

const random = () => randomBytes(6).toString('hex')

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
  const name = `botshelf_t_${random()}`
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} })
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async openTables(now) {
      const schema = `s_${random()}`
      const sql = postgres(url.toString(), { max: 4, onnotice: () => {}, connection: { search_path: schema } })
      try {
        await sql.unsafe(`CREATE SCHEMA ${schema}`)
        for (const migration of postgresTablesMigrations) await sql.begin((tx) => migration.up(tx))
      } catch (error) {
        await sql.end()
        throw error
      }
      return {
        tables: createPostgresTablesPort(sql, { now }),
        sql,
        close: async () => {
          try {
            await sql.unsafe(`DROP SCHEMA ${schema} CASCADE`)
          } finally {
            await sql.end()
          }
        },
      }
    },
    async drop() {
      const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => {} })
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      } finally {
        await sql.end()
      }
    },
  }
}
