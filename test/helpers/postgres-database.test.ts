import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openPostgresBackend } from '../../server/src/store/postgres/backend.js'
import { dropTestFileDatabase, testFileDatabase, testFileSchema } from './postgres-database.js'

// The PostgreSQL test backends reuse a schema a closed backend left: the next backend must find it empty and
// fully migrated, with nothing of the tables the previous one made.
describe('a test schema taken back after use', () => {
  afterAll(dropTestFileDatabase)

  it('is handed to the next backend empty, without the user tables the previous one made', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'botshelf-schema-pool-'))
    try {
      const first = await testFileSchema()
      expect(first.reused).toBe(false)
      const used = await openPostgresBackend({ url: first.url, schema: first.schema, dataDir, poolSize: 2 })
      await first.opened()
      const bot = await used.auth.createBot({ name: 'before' })
      await used.tables.createTable(bot.id, { name: 'ordersTable', schema: { total: 0 } })
      await used.tables.createRows(bot.id, 'ordersTable', [{ total: 12 }, { total: 30 }])
      await used.close()
      await first.release()

      const second = await testFileSchema()
      expect(second.reused).toBe(true)
      expect(second.schema).toBe(first.schema)
      const reopened = await openPostgresBackend({ url: second.url, schema: second.schema, dataDir, poolSize: 2 })
      try {
        await second.opened()
        expect(await reopened.auth.listBots()).toEqual([])
        const { admin } = await testFileDatabase()
        const userTables = await admin`SELECT tablename FROM pg_tables WHERE schemaname = ${second.schema} AND tablename LIKE 'ut\\_%'`
        expect(userTables.map((t) => t['tablename'])).toEqual([])
        // Still migrated: a table and its rows can be made again.
        const again = await reopened.auth.createBot({ name: 'after' })
        await reopened.tables.createTable(again.id, { name: 'ordersTable', schema: { total: 0 } })
        expect((await reopened.tables.createRows(again.id, 'ordersTable', [{ total: 1 }])).rows).toHaveLength(1)
      } finally {
        await reopened.close()
        await second.release()
      }
      // A schema still in use is never handed out twice: two takers at once get two schemas.
      const [a, b] = await Promise.all([testFileSchema(), testFileSchema()])
      expect(a.schema).not.toBe(b.schema)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
