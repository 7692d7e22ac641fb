import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BotshelfError } from 'botshelf/api'
import type { BackendPorts } from '../backend.js'
import type { Clock } from '../clock.js'
import type { UpsertFileInput } from '../files/types.js'
import { connectPostgres } from './connect.js'
import { openPostgresBackend, postgresMigrations, type PostgresBackend, type PostgresBackendOptions } from './backend.js'
import { serializable, SERIALIZABLE_ATTEMPTS } from './serializable.js'
import { createTestDatabase, type TestDatabase } from './test-database.test-support.js'
import { botFileInput } from '../files/bot-file-input.test-support.js'

const START = Date.parse('2026-07-01T12:00:00.000Z')
const BOT = 'bot_pg_a'

function definition(key: string): UpsertFileInput {
  return botFileInput(BOT, key, { index: false })
}

function latch(): { promise: Promise<void>; open(): void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

async function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  )
}

class Refused extends Error {
  override readonly name = 'Refused'
}

let database: TestDatabase
const dataDir = mkdtempSync(join(tmpdir(), 'botshelf-pg-backend-'))
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.drop()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('openPostgresBackend', () => {
  let current = START
  const now: Clock = () => new Date(current)
  const opened: PostgresBackend[] = []
  let schema: string
  const open = async (extra: Partial<PostgresBackendOptions> = {}) => {
    const backend = await openPostgresBackend({ url: database.url, dataDir, now, schema, poolSize: 4, ...extra })
    opened.push(backend)
    return backend
  }
  let backend: PostgresBackend

  beforeEach(async () => {
    current = START
    schema = database.freshSchema()
    backend = await open()
  })
  afterEach(async () => {
    for (const each of opened.splice(0)) await each.close()
    await database.admin`DROP SCHEMA IF EXISTS ${database.admin(schema)} CASCADE`
  })

  /** One write on every PostgreSQL port (bot, file, knowledge base, job), through the ports given. */
  async function writeEverywhere(ports: BackendPorts, tag: string): Promise<{ botId: string }> {
    const bot = await ports.auth.createBot({ name: `bot-${tag}` })
    await ports.files.upsert(definition(`${tag}.txt`))
    await ports.knowledgeBases.create({ botId: BOT, name: `kb-${tag}`, tags: {} })
    await ports.jobs.enqueue({ kind: 'pg.test', payload: { tag } })
    return { botId: bot.id }
  }

  async function visible(tag: string, botId?: string) {
    return {
      bot: botId === undefined ? undefined : (await backend.auth.getBot(botId))?.name,
      file: (await backend.files.getByKey(BOT, `${tag}.txt`)).length,
      knowledgeBase: (await backend.knowledgeBases.list({ botId: BOT, pageSize: 100 })).items.filter((kb) => kb.name === `kb-${tag}`).length,
      job: (await backend.jobs.list({ kind: 'pg.test' })).filter((job) => (job.payload as { tag?: string }).tag === tag).length,
    }
  }

  describe('transactions', () => {
    it('commits every port when fn resolves and rolls every port back when it throws', async () => {
      let kept = ''
      expect(await backend.transaction(async (tx) => ((kept = (await writeEverywhere(tx, 'kept')).botId), 'done'))).toBe('done')
      expect(await visible('kept', kept)).toEqual({ bot: 'bot-kept', file: 1, knowledgeBase: 1, job: 1 })

      const boom = new Error('boom')
      let lost = ''
      let inside: unknown
      const outcome = await settle(
        backend.transaction(async (tx) => {
          lost = (await writeEverywhere(tx, 'lost')).botId
          inside = { file: (await tx.files.getByKey(BOT, 'lost.txt')).length, job: (await tx.jobs.list({ kind: 'pg.test' })).length }
          throw boom
        }),
      )
      expect(outcome).toEqual({ ok: false, error: boom })
      expect(inside).toEqual({ file: 1, job: 2 })
      expect(await visible('lost', lost)).toEqual({ bot: undefined, file: 0, knowledgeBase: 0, job: 0 })
    })

    it('an upsert whose check refuses a new key leaves no row inside a transaction that goes on and commits', async () => {
      const refusal = new Error('no new files here')
      await backend.transaction(async (tx) => {
        await expect(
          tx.files.upsert(definition('refused.txt'), () => {
            throw refusal
          }),
        ).rejects.toBe(refusal)
        await tx.files.upsert(definition('accepted.txt'))
      })
      expect(await backend.files.getByKey(BOT, 'refused.txt')).toEqual([])
      expect(await backend.files.getByKey(BOT, 'accepted.txt')).toHaveLength(1)
    })

    it('keeps concurrent check-then-act transactions to one winner, on this server and across servers', async () => {
      const other = await open()
      const claimOnce = (worker: number) =>
        (worker % 2 === 0 ? backend : other).transaction(async (tx) => {
          if ((await tx.jobs.list({ kind: 'pg.singleton' })).length > 0) throw new Refused(`worker ${worker}: already queued`)
          // Kept real: it holds the gap between the check and the act open on the server, where the others interleave.
          await sleep(2)
          await tx.files.upsert(definition(`winner-${worker}.txt`))
          return (await tx.jobs.enqueue({ kind: 'pg.singleton', payload: { worker } })).job.id
        })
      const results = await Promise.all(Array.from({ length: 6 }, (_, worker) => settle(claimOnce(worker))))
      const winners = results.filter((r): r is { ok: true; value: string } => r.ok)
      expect(winners).toHaveLength(1)
      expect(results.filter((r) => !r.ok).every((r) => (r as { error: unknown }).error instanceof Refused)).toBe(true)
      const jobs = await backend.jobs.list({ kind: 'pg.singleton' })
      expect(jobs.map((job) => job.id)).toEqual([winners[0]!.value])
      const worker = (jobs[0]!.payload as { worker: number }).worker
      const files = await backend.files.list({ botId: BOT, scope: { kind: 'all' }, sortField: 'key', sortDirection: 'asc', pageSize: 10 })
      expect(files.items.map((f) => f.key)).toEqual([`winner-${worker}.txt`])
    })

    it('applies concurrent read-modify-write transactions one after another: no update is lost', async () => {
      const kb = await backend.knowledgeBases.create({ botId: BOT, name: '0', tags: {} })
      await Promise.all(
        Array.from({ length: 5 }, () =>
          backend.transaction(async (tx) => {
            const current = await tx.knowledgeBases.get(BOT, kb.id)
            // Kept real: the read and the write are apart in time, as a lost update needs.
            await sleep(1)
            await tx.knowledgeBases.update(BOT, kb.id, { name: String(Number(current!.name) + 1) })
          }),
        ),
      )
      expect((await backend.knowledgeBases.get(BOT, kb.id))?.name).toBe('5')
    })

    it('hides its uncommitted writes from the root ports, which answer meanwhile', async () => {
      const wrote = latch()
      const release = latch()
      const transaction = backend.transaction(async (tx) => {
        await writeEverywhere(tx, 'pending')
        wrote.open()
        await release.promise
        throw new Refused('rolled back on purpose')
      })
      await wrote.promise
      // Answered while the transaction is still open: PostgreSQL readers do not wait for writers.
      expect(await visible('pending')).toEqual({ bot: undefined, file: 0, knowledgeBase: 0, job: 0 })
      release.open()
      await expect(transaction).rejects.toBeInstanceOf(Refused)
    })

    it('refuses root-port calls, a nested transaction and close inside fn, naming the transaction; fn carries on and commits', async () => {
      const calls: Array<[string, () => Promise<unknown>]> = [
        ['auth', () => backend.auth.listBots()],
        ['files', () => backend.files.getByKey(BOT, 'a.txt')],
        ['knowledgeBases', () => backend.knowledgeBases.list({ botId: BOT, pageSize: 1 })],
        ['jobs', () => backend.jobs.enqueue({ kind: 'pg.test', payload: { tag: 'root-inside' } })],
        ['transaction', () => backend.transaction(async (inner) => inner.files.upsert(definition('nested.txt')))],
        ['close', () => backend.close()],
      ]
      const outcomes = await backend.transaction(async (tx) => {
        await tx.files.upsert(definition('tx.txt'))
        const settled: Array<[string, unknown]> = []
        for (const [what, call] of calls) {
          const outcome = await settle(call())
          settled.push([what, outcome.ok ? 'resolved' : outcome.error])
        }
        return settled
      })
      for (const [what, error] of outcomes) {
        expect({ what, error }).toEqual({ what, error: expect.any(BotshelfError) })
        expect((error as BotshelfError).code).toBe('CALL_INSIDE_TRANSACTION')
        expect((error as Error).message).toMatch(/inside backend\.transaction\(fn\).*use the ports fn receives/i)
      }
      expect(await visible('tx')).toMatchObject({ file: 1 })
      expect(await visible('root-inside')).toMatchObject({ job: 0 })
      expect(await visible('nested')).toMatchObject({ file: 0 })
      await expect(backend.ping()).resolves.toBeUndefined()
    })

    it('treats work fn started and left running as outside once fn has ended', async () => {
      const go = latch()
      let detached!: Promise<unknown>
      await backend.transaction(async (tx) => {
        await tx.files.upsert(definition('tx.txt'))
        detached = (async () => {
          await go.promise
          return backend.files.upsert(definition('detached.txt'))
        })()
      })
      go.open()
      await expect(detached).resolves.toMatchObject({ created: true })
      expect(await visible('detached')).toMatchObject({ file: 1 })
    })

    it('refuses ports fn kept after its transaction ended', async () => {
      let kept!: BackendPorts
      await backend.transaction(async (tx) => {
        kept = tx
        await tx.files.upsert(definition('inside.txt'))
      })
      await expect(kept.files.upsert(definition('late.txt'))).rejects.toMatchObject({
        code: 'TRANSACTION_ENDED',
        message: 'tx.files.upsert: the transaction these ports belong to has ended',
      })
      expect(await visible('late')).toMatchObject({ file: 0 })
      expect(await visible('inside')).toMatchObject({ file: 1 })
    })

    it('does not commit an attempt whose failed statement fn swallowed', async () => {
      const outcome = await settle(
        backend.transaction(async (tx) => {
          await tx.files.upsert(definition('before.txt'))
          // A statement PostgreSQL refuses (a negative LIMIT) aborts the transaction.
          await tx.files.list({ botId: BOT, scope: { kind: 'all' }, sortField: 'key', sortDirection: 'asc', pageSize: -5 }).catch(() => undefined)
          await tx.files.upsert(definition('after.txt')).catch(() => undefined)
        }),
      )
      expect(outcome.ok).toBe(false)
      expect(await visible('before')).toMatchObject({ file: 0 })
      expect(await visible('after')).toMatchObject({ file: 0 })
    })
  })

  // A row and its computed cells read apart answered settled cells beside older row values when a computation
  // committed between the reads (decision 1453); `readSnapshot` reads them in one snapshot (decision 1479). The
  // commits "between the statements" come from another server on the same database, in the middle of fn.
  describe('read snapshots', () => {
    async function rowWithCell(): Promise<{ tableId: string }> {
      const table = await backend.tables.createTable(BOT, { name: 'snapTable', schema: { n: 0 } })
      await backend.tables.createRows(BOT, 'snapTable', [{ n: 1 }])
      await backend.computed.resetCells(BOT, table.id, [{ rowId: 1, column: 'label', stale: true }])
      return { tableId: table.id }
    }
    const cellState = (cells: ReadonlyArray<{ status: string; stale: boolean }>) => cells.map((cell) => [cell.status, cell.stale])

    it('reads every statement of fn in one snapshot: a commit made between them is not seen, and is after', async () => {
      const { tableId } = await rowWithCell()
      const other = await open()
      const seen = await backend.readSnapshot(async (ports) => {
        const before = { n: (await ports.tables.getRow(BOT, tableId, 1))['n'], cells: cellState(await ports.computed.cellsOf(tableId, [1])) }
        await other.transaction(async (tx) => {
          await tx.tables.updateRows(BOT, tableId, [{ id: 1, n: 2 }])
          await tx.computed.resetCells(BOT, tableId, [{ rowId: 1, column: 'label', stale: false }])
        })
        const after = { n: (await ports.tables.getRow(BOT, tableId, 1))['n'], cells: cellState(await ports.computed.cellsOf(tableId, [1])) }
        return { before, after, rows: (await ports.tables.getTable(BOT, tableId)).rows }
      })
      expect(seen.before).toEqual({ n: 1, cells: [['pending', true]] })
      expect(seen.after).toEqual(seen.before)
      expect(seen.rows).toBe(1)
      expect((await backend.tables.getRow(BOT, tableId, 1))['n']).toBe(2)
      expect(cellState(await backend.computed.cellsOf(tableId, [1]))).toEqual([['disabled', false]])
    })

    it('refuses writes inside, and answers a table dropped meanwhile as not found (one more run in a new snapshot)', async () => {
      const { tableId } = await rowWithCell()
      await expect(backend.readSnapshot((ports) => ports.tables.createRows(BOT, tableId, [{ n: 3 }]))).rejects.toMatchObject({ code: '25006' })
      const other = await open()
      let runs = 0
      const outcome = await settle(
        backend.readSnapshot(async (ports) => {
          runs++
          await ports.tables.loadTable(BOT, tableId)
          if (runs === 1) await other.tables.deleteTable(BOT, tableId)
          return ports.tables.getRow(BOT, tableId, 1)
        }),
      )
      expect(runs).toBe(2)
      expect(outcome).toMatchObject({ ok: false, error: { code: 'TABLE_NOT_FOUND' } })
      expect((await backend.tables.createRows(BOT, 'snapTable', [{ n: 4 }]).catch((error: unknown) => error)) as object).toMatchObject({ code: 'TABLE_NOT_FOUND' })
    })
  })

  describe('several servers on one database', () => {
    it('migrates once when many servers start at the same moment', async () => {
      const fresh = database.freshSchema()
      const servers = await Promise.all(Array.from({ length: 6 }, () => openPostgresBackend({ url: database.url, dataDir, schema: fresh, poolSize: 1 })))
      try {
        const applied = servers.map((server) => server.appliedMigrations.length).sort((a, b) => b - a)
        expect(applied).toEqual([postgresMigrations.length, 0, 0, 0, 0, 0])
        const recorded = await database.admin<Array<{ id: string }>>`SELECT id FROM ${database.admin(fresh)}.botshelf_migrations ORDER BY id`
        expect(recorded.map((row) => row.id)).toEqual(postgresMigrations.map((m) => m.id).sort())
        await Promise.all(servers.map((server) => server.migrate()))
        expect((await database.admin`SELECT count(*)::int AS n FROM ${database.admin(fresh)}.botshelf_migrations`)[0]!['n']).toBe(postgresMigrations.length)
      } finally {
        for (const server of servers) await server.close()
        await database.admin`DROP SCHEMA ${database.admin(fresh)} CASCADE`
      }
    })

    it('shares one workspace and one signing key between servers that ask at the same time', async () => {
      const others = await Promise.all([open(), open(), open()])
      const all = [backend, ...others]
      const workspaces = await Promise.all(all.map((server) => server.auth.ensureWorkspace()))
      expect(new Set(workspaces).size).toBe(1)
      const keys = await Promise.all(all.map((server) => server.auth.signingKey()))
      expect(keys[0]).toHaveLength(32)
      for (const key of keys) expect(key.equals(keys[0]!)).toBe(true)
      // A seed given later changes nothing: the first key stays the dataset's.
      expect((await others[0]!.auth.signingKey(Buffer.alloc(32, 7))).equals(keys[0]!)).toBe(true)
    })

    it('gives each job to exactly one of the workers of several servers claiming at once', async () => {
      const others = await Promise.all([open(), open()])
      const servers = [backend, ...others]
      for (let i = 0; i < 24; i++) await backend.jobs.enqueue({ kind: 'pg.work', payload: i })
      const claimed: string[] = []
      await Promise.all(
        servers.flatMap((server, s) =>
          [0, 1].map(async (slot) => {
            for (;;) {
              const job = await server.jobs.claim({ workerId: `server${s}:${slot}`, leaseMs: 60_000, kinds: ['pg.work'] })
              if (!job) return
              claimed.push(job.id)
              expect(await server.jobs.complete(job.id, `server${s}:${slot}`)).toBe(true)
            }
          }),
        ),
      )
      expect(claimed).toHaveLength(24)
      expect(new Set(claimed).size).toBe(24)
      expect(await backend.jobs.list({ kind: 'pg.work', state: 'completed', limit: 100 })).toHaveLength(24)
    })

    it('lets a token made on one server authenticate on another', async () => {
      const other = await open()
      const bot = await backend.auth.createBot({ name: 'support' })
      const { token } = await backend.auth.createToken({ botId: bot.id, role: 'bot' })
      await expect(other.auth.authenticate(token, bot.id)).resolves.toMatchObject({ ok: true, principal: { kind: 'bot', botId: bot.id } })
    })
  })

  describe('connections', () => {
    it('carries on after the database ends its connections, with every acknowledged write kept', async () => {
      const { file } = await backend.files.upsert(definition('kept.txt'))
      await backend.jobs.enqueue({ kind: 'pg.test', payload: { tag: 'kept' } })
      const ended = await database.admin`
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${database.name} AND application_name = 'botshelf'`
      expect(ended.length).toBeGreaterThan(0)
      // Every call after the restart succeeds (the pool replaces the connections it lost).
      await expect(backend.ping()).resolves.toBeUndefined()
      expect((await backend.files.getById(BOT, file.id))?.key).toBe('kept.txt')
      expect(await visible('kept')).toMatchObject({ file: 1, job: 1 })
      await backend.transaction(async (tx) => tx.files.upsert(definition('after.txt')))
      expect(await visible('after')).toMatchObject({ file: 1 })
    })

    it('sets the statement timeout on every connection', async () => {
      // 500 ms: the driver's own first query (it reads the array types) ran past 50 ms on a slow machine and was cancelled.
      const sql = connectPostgres({ url: database.url, statementTimeoutMs: 500, poolSize: 2 })
      try {
        expect((await sql`SHOW statement_timeout`)[0]!['statement_timeout']).toBe('500ms')
        await expect(sql`SELECT pg_sleep(5)`).rejects.toMatchObject({ code: '57014' })
        // The connection stays usable after the cancelled statement.
        expect((await sql`SELECT 1 AS one`)[0]!['one']).toBe(1)
      } finally {
        await sql.end({ timeout: 1 })
      }
    })

    it('keeps its tables in the schema it was given', async () => {
      const tables = await database.admin<Array<{ tablename: string }>>`SELECT tablename FROM pg_tables WHERE schemaname = ${schema} ORDER BY tablename`
      expect(tables.map((t) => t.tablename)).toEqual(
        expect.arrayContaining(['botshelf_migrations', 'bots', 'file_tags', 'files', 'knowledge_base_tags', 'knowledge_bases', 'queue_jobs', 'service_secrets', 'tokens', 'workspaces']),
      )
    })
  })

  describe('lifecycle', () => {
    it('names its engine, answers ping and migrates again without harm', async () => {
      expect(backend.kind).toBe('postgres')
      await writeEverywhere(backend, 'before')
      await backend.migrate()
      expect(await visible('before')).toMatchObject({ file: 1, knowledgeBase: 1, job: 1 })
      await expect(backend.ping()).resolves.toBeUndefined()
    })

    it('stamps every port with its clock', async () => {
      current = START + 42_000
      const bot = await backend.auth.createBot()
      const { file } = await backend.files.upsert(definition('clock.txt'))
      const { job } = await backend.jobs.enqueue({ kind: 'pg.clock' })
      const kb = await backend.knowledgeBases.create({ botId: BOT, name: 'clock', tags: {} })
      for (const at of [bot.createdAt, file.createdAt, job.createdAt, kb.createdAt]) expect(at).toBe(new Date(START + 42_000).toISOString())
    })

    it('closes after the open transaction ends, which still commits; closed, it answers nothing', async () => {
      const opened = latch()
      const release = latch()
      const transaction = backend.transaction(async (tx) => {
        await tx.files.upsert(definition('last.txt'))
        opened.open()
        await release.promise
        return (await tx.files.getByKey(BOT, 'last.txt')).length
      })
      await opened.promise
      const closing = backend.close()
      release.open()
      expect(await transaction).toBe(1)
      await closing
      await expect(backend.ping()).rejects.toMatchObject({ code: 'BACKEND_CLOSED' })
      await expect(backend.files.getByKey(BOT, 'a.txt')).rejects.toThrow(/closed/)
      await expect(backend.transaction(async () => 1)).rejects.toThrow(/closed/)
      await expect(backend.close()).resolves.toBeUndefined()
      const reopened = await open()
      expect(await reopened.files.getByKey(BOT, 'last.txt')).toHaveLength(1)
    })

    it('finds nothing by an id or key with NUL, and refuses to store NUL text with a clear 400', async () => {
      expect(await backend.files.getById(BOT, 'file_\u0000')).toBeUndefined()
      expect(await backend.files.getByKey(BOT, 'a\u0000b')).toEqual([])
      expect(await backend.auth.getBot('b\u0000')).toBeUndefined()
      await expect(backend.auth.authenticate('bs_x', 'b\u0000')).resolves.toEqual({ ok: false, reason: 'unknown_token' })
      const refused = { code: 'INVALID_TEXT', status: 400, message: expect.stringMatching(/NUL character/) }
      await expect(backend.files.upsert(definition('a\u0000b.txt'))).rejects.toMatchObject(refused)
      await expect(backend.transaction((tx) => tx.knowledgeBases.create({ botId: BOT, name: 'n\u0000', tags: {} }))).rejects.toMatchObject(refused)
      await expect(backend.ping()).resolves.toBeUndefined()
    })

    it('serves the Tables API from real PostgreSQL tables by default, in its schema, inside transactions too', async () => {
      await backend.tables.createTable(BOT, { name: 'ordersTable', schema: { type: 'object', properties: { total: { type: 'number' } } } })
      await backend.transaction((tx) => tx.tables.createRows(BOT, 'ordersTable', [{ total: 3 }, { total: 5 }]))
      const found = await backend.tables.findRows(BOT, 'ordersTable', { filter: { total: { $gt: 4 } } })
      expect(found.rows.map((row) => row['total'])).toEqual([5])
      await expect(backend.transaction(async (tx) => {
        await tx.tables.createRows(BOT, 'ordersTable', [{ total: 9 }])
        throw new Error('roll back')
      })).rejects.toThrow('roll back')
      expect((await backend.tables.findRows(BOT, 'ordersTable', {})).rows).toHaveLength(2)
    })

    it('refuses bad options before connecting, naming the field', async () => {
      await expect(openPostgresBackend({ url: 'mysql://x', dataDir })).rejects.toThrow(/^url: expected a postgres:\/\/ or postgresql:\/\/ URL, received "mysql:\/\/x"/)
      await expect(openPostgresBackend({ url: database.url, dataDir, poolSize: 0 })).rejects.toThrow(/^poolSize: expected an integer from 1 to 1000, received 0/)
      await expect(openPostgresBackend({ url: database.url, dataDir, statementTimeoutMs: -1 })).rejects.toThrow(/^statementTimeoutMs/)
      await expect(openPostgresBackend({ url: database.url, dataDir, schema: 'Robert"; DROP' })).rejects.toThrow(/^schema: expected a lowercase SQL name/)
      await expect(openPostgresBackend({ url: database.url })).rejects.toThrow(/blobs: expected a BlobStore, or dataDir/)
    })

    it('says which database it could not reach, without its password', async () => {
      const url = 'postgres://postgres:s3cret@127.0.0.1:1/nowhere'
      const outcome = await settle(openPostgresBackend({ url, dataDir }))
      expect(outcome.ok).toBe(false)
      const message = outcome.ok ? '' : String((outcome.error as Error).message)
      expect(message).toContain('postgres://postgres:***@127.0.0.1:1/nowhere')
      expect(message).not.toContain('s3cret')
      expect(outcome).toMatchObject({ error: { code: 'DATABASE_UNAVAILABLE' } })
    })
  })
})

describe('the same order and cursors as the embedded backend', () => {
  it('lists files by key, size and time in the order SQLite does, ties and byte order included, page by page', async () => {
    const keys = ['b.txt', 'B.txt', 'a.txt', '_z.txt', 'é.txt', 'Z.txt', 'a b.txt', 'a-b.txt', '10.txt', '9.txt']
    const walk = async (store: { files: BackendPorts['files'] }, sortField: 'key' | 'size' | 'createdAt', sortDirection: 'asc' | 'desc') => {
      const seen: Array<{ key: string; next?: unknown }> = []
      let after: { value: string | number; id: string } | undefined
      for (;;) {
        const page = await store.files.list({ botId: BOT, scope: { kind: 'all' }, sortField, sortDirection, pageSize: 3, ...(after ? { after } : {}) })
        for (const file of page.items) seen.push({ key: file.key })
        if (!page.next) return { keys: seen.map((s) => s.key), lastValue: typeof after?.value }
        after = page.next
      }
    }
    const { openSqliteBackend } = await import('../sqlite/backend.js')
    const clock = { at: START }
    const now: Clock = () => new Date(clock.at)
    const schema = database.freshSchema()
    const pg = await openPostgresBackend({ url: database.url, dataDir, now, schema, poolSize: 2 })
    const sqlite = await openSqliteBackend({ memory: true, now })
    try {
      // Same clock for both: pairs of files share a creation time (ties broken by id), sizes repeat.
      for (const [index, key] of keys.entries()) {
        clock.at = START + Math.floor(index / 2) * 1000
        for (const store of [pg, sqlite]) {
          const { file } = await store.files.upsert({ ...definition(key), size: 10 })
          await store.files.completeUpload(file.id, 1, { blobId: `blob-${key}`, size: index % 3, sha256: 'x' })
        }
      }
      for (const sortField of ['key', 'size', 'createdAt'] as const) {
        for (const sortDirection of ['asc', 'desc'] as const) {
          const [onPg, onSqlite] = [await walk(pg, sortField, sortDirection), await walk(sqlite, sortField, sortDirection)]
          expect({ sortField, sortDirection, keys: onPg.keys }).toEqual({ sortField, sortDirection, keys: onSqlite.keys })
          expect(onPg.lastValue).toBe(onSqlite.lastValue)
          expect(onPg.keys).toHaveLength(keys.length)
        }
      }
      // Byte order, not the locale's: upper case before lower case, "é" after "z".
      expect((await walk(pg, 'key', 'asc')).keys.slice(0, 4)).toEqual(['10.txt', '9.txt', 'B.txt', 'Z.txt'])
    } finally {
      await pg.close()
      await sqlite.close()
      await database.admin`DROP SCHEMA ${database.admin(schema)} CASCADE`
    }
  })
})

describe('serializable', () => {
  it('runs fn again after a serialization failure, and gives up with TRANSACTION_CONFLICT after the last attempt', async () => {
    const sql = connectPostgres({ url: database.url, poolSize: 1 })
    try {
      let calls = 0
      const value = await serializable(sql, async () => {
        calls += 1
        if (calls < 3) throw new postgres.PostgresError({ message: 'could not serialize access', code: '40001' } as never)
        return 'third time'
      })
      expect({ value, calls }).toEqual({ value: 'third time', calls: 3 })

      calls = 0
      const outcome = await settle(
        serializable(sql, async () => {
          calls += 1
          throw new postgres.PostgresError({ message: 'could not serialize access', code: '40001' } as never)
        }),
      )
      expect(calls).toBe(SERIALIZABLE_ATTEMPTS)
      expect(outcome).toMatchObject({ ok: false, error: { code: 'TRANSACTION_CONFLICT', status: 409 } })

      calls = 0
      await expect(serializable(sql, async () => ((calls += 1), Promise.reject(new Refused('no'))))).rejects.toBeInstanceOf(Refused)
      expect(calls).toBe(1)
    } finally {
      await sql.end({ timeout: 1 })
    }
  })
})
