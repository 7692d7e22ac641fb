import { randomBytes } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite/vector'
import postgres from 'postgres'
import type { PgSql } from '../pg-types.js'
import { pgliteSql } from './pglite-sql.test-support.js'

/** The server the tests use; `BOTSHELF_TEST_POSTGRES_URL` points elsewhere (its database is the admin one). */
const ADMIN_URL = process.env['BOTSHELF_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres'

const random = () => randomBytes(6).toString('hex')

/** A place to open fresh schemas in: each `openSchema` is empty and its own; `drop` removes everything. */
export interface SchemaSource<Sql extends PgSql = PgSql> {
  openSchema(): Promise<{ sql: Sql; close(): Promise<void> }>
  drop(): Promise<void>
}

/**
 * A database `botshelf_t_<random>` on the real PostgreSQL server, created for one test file and dropped at its end;
 * each schema gets a pool whose `search_path` is that schema.
 *
 * @example
 * ```ts
 * const db = await realPostgresDatabase()
 * const { sql, close } = await db.openSchema()
 * ```
 */
export async function realPostgresDatabase(): Promise<SchemaSource<postgres.Sql> & { url: string }> {
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
    async openSchema() {
      const schema = `s_${random()}`
      const sql = postgres(url.toString(), { max: 4, onnotice: () => {}, connection: { search_path: schema } })
      await sql.unsafe(`CREATE SCHEMA ${schema}`)
      return {
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

/**
 * One in-process PGlite (PostgreSQL compiled to WebAssembly) with pgvector loaded when `withVector`, for one test
 * file; each schema is a fresh `s_<random>` on its single connection, with `public` (where `vector` lives) behind it.
 *
 * @example
 * ```ts
 * const db = await pgliteDatabase({ withVector: true })
 * ```
 */
export async function pgliteDatabase(options: { withVector: boolean }): Promise<SchemaSource & { db: PGlite }> {
  const db = await PGlite.create(options.withVector ? { extensions: { vector } } : {})
  if (options.withVector) await db.exec('CREATE EXTENSION IF NOT EXISTS vector')
  return {
    db,
    async openSchema() {
      const schema = `s_${random()}`
      await db.exec(`CREATE SCHEMA ${schema}; SET search_path = ${schema}, public`)
      return { sql: pgliteSql(db), close: async () => void (await db.exec(`SET search_path = public; DROP SCHEMA ${schema} CASCADE`)) }
    },
    drop: () => db.close(),
  }
}
