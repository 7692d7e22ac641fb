import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { UpsertFileInput } from './files/types.js'
import type { Backend, BackendPorts } from './backend.js'
import type { Clock } from './clock.js'
import { botFileInput } from './files/bot-file-input.test-support.js'

const START = Date.parse('2026-07-01T12:00:00.000Z')
const BOT = 'bot_backend_a'
/** How long a call may take before the suite calls it a deadlock. */
const DEADLOCK_MS = 2_000

/** A bot file definition. */
function definition(key: string): UpsertFileInput {
  return botFileInput(BOT, key, { index: false })
}

/** A promise and the function that resolves it: a gate a test opens by hand. */
function latch(): { promise: Promise<void>; open(): void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** `promise`, or a rejection naming `what` when it does not settle within `ms` (a deadlock, for these tests). */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms (deadlock)`)), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** How a call settled: its value, or the error it rejected with. */
async function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  )
}

class Refused extends Error {
  override readonly name = 'Refused'
}

/**
 * Declares the behaviour every `Backend` must have as a whole: transactions that commit on resolve and roll back
 * on throw across every port, atomic check-then-act, isolation of an open transaction from calls outside it, a
 * clear refusal (never a deadlock) for root-port calls, nested transactions and close inside `fn` (while work `fn`
 * started and left running counts as outside once `fn` ended), the one clock, ping, idempotent migrations and
 * close. Written against the `Backend` interface only; `open` gets the suite's clock (a fake
 * one it moves by hand) and returns a fresh, empty, migrated backend; `close` runs after each test.
 *
 * @example
 * ```ts
 * describeBackendContract('sqlite-memory', async (now) => {
 *   const backend = await openSqliteBackend({ memory: true, now })
 *   return { backend, close: () => backend.close() }
 * })
 * ```
 */
export function describeBackendContract(name: string, open: (now: Clock) => Promise<{ backend: Backend; close(): Promise<void> }>): void {
  describe(`Backend contract: ${name}`, () => {
    let current = START
    const now: Clock = () => new Date(current)
    let backend: Backend
    let close: () => Promise<void>

    beforeEach(async () => {
      current = START
      // A backend that failed to open has nothing to close.
      close = async () => {}
      ;({ backend, close } = await open(now))
      await backend.tables.createTable(BOT, { name: 'ordersTable', schema: { ref: '', total: 0 } })
    })
    afterEach(async () => {
      await close()
    })

    /** One write on every port (bot, file, knowledge base, row, job), through the ports given. */
    async function writeEverywhere(ports: BackendPorts, tag: string): Promise<{ botId: string }> {
      const bot = await ports.auth.createBot({ name: `bot-${tag}` })
      await ports.files.upsert(definition(`${tag}.txt`))
      await ports.knowledgeBases.create({ botId: BOT, name: `kb-${tag}`, tags: {} })
      await ports.tables.createRows(BOT, 'ordersTable', [{ ref: tag, total: 1 }])
      await ports.jobs.enqueue({ kind: 'contract.test', payload: { tag } })
      return { botId: bot.id }
    }

    /** What the root ports see of the writes of {@link writeEverywhere}. */
    async function visible(tag: string, botId?: string) {
      return {
        bot: botId === undefined ? undefined : (await backend.auth.getBot(botId))?.name,
        file: (await backend.files.getByKey(BOT, `${tag}.txt`)).length,
        knowledgeBase: (await backend.knowledgeBases.list({ botId: BOT, pageSize: 100 })).items.filter((kb) => kb.name === `kb-${tag}`).length,
        row: (await backend.tables.findRows(BOT, 'ordersTable', { filter: { ref: tag } })).rows.length,
        job: (await backend.jobs.list({ kind: 'contract.test' })).filter((job) => (job.payload as { tag?: string }).tag === tag).length,
      }
    }

    describe('transaction', () => {
      it('commits when fn resolves: its value comes back and every port\'s writes are visible', async () => {
        let botId = ''
        const result = await backend.transaction(async (tx) => {
          ;({ botId } = await writeEverywhere(tx, 'kept'))
          return 'done'
        })
        expect(result).toBe('done')
        expect(await visible('kept', botId)).toEqual({ bot: 'bot-kept', file: 1, knowledgeBase: 1, row: 1, job: 1 })
      })

      it('rolls back every port when fn throws, and rethrows that error', async () => {
        const boom = new Error('boom')
        let botId = ''
        let seenInside: unknown
        const outcome = await settle(
          backend.transaction(async (tx) => {
            ;({ botId } = await writeEverywhere(tx, 'lost'))
            // Inside, the transaction reads its own writes.
            seenInside = {
              file: (await tx.files.getByKey(BOT, 'lost.txt')).length,
              row: (await tx.tables.findRows(BOT, 'ordersTable', { filter: { ref: 'lost' } })).rows.length,
              job: (await tx.jobs.list({ kind: 'contract.test' })).length,
            }
            throw boom
          }),
        )
        expect(outcome).toEqual({ ok: false, error: boom })
        expect(seenInside).toEqual({ file: 1, row: 1, job: 1 })
        expect(await visible('lost', botId)).toEqual({ bot: undefined, file: 0, knowledgeBase: 0, row: 0, job: 0 })
        expect((await backend.tables.getTable(BOT, 'ordersTable')).rows).toBe(0)
        // The backend is usable afterwards, in and out of transactions.
        await backend.transaction(async (tx) => void (await tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'after' }])))
        expect((await backend.tables.getTable(BOT, 'ordersTable')).rows).toBe(1)
      })

      it('rolls back writes made before a failed port call that fn lets through', async () => {
        const outcome = await settle(
          backend.transaction(async (tx) => {
            await tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'first', total: 1 }])
            await tx.files.upsert(definition('first.txt'))
            await tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'second', total: 'not a number' }])
          }),
        )
        expect(outcome.ok).toBe(false)
        expect(outcome).toMatchObject({ error: { code: 'INVALID_ROW' } })
        expect(await visible('first')).toMatchObject({ file: 0, row: 0 })
      })

      it('commits the rest when fn catches a failed port call and carries on', async () => {
        await backend.transaction(async (tx) => {
          await tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'kept', total: 1 }])
          await expect(tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'bad', total: 'x' }])).rejects.toMatchObject({ code: 'INVALID_ROW' })
          await tx.files.upsert(definition('kept.txt'))
        })
        expect(await visible('kept')).toMatchObject({ file: 1, row: 1 })
        expect(await visible('bad')).toMatchObject({ row: 0 })
      })

      it('makes check-then-act atomic: of two concurrent read-then-insert transactions, one inserts and one is refused', async () => {
        const insertUnlessPresent = (ref: string) =>
          backend.transaction(async (tx) => {
            const { rows } = await tx.tables.findRows(BOT, 'ordersTable', { filter: { ref } })
            if (rows.length > 0) throw new Refused(`${ref} exists`)
            // Give the other transaction every chance to read in between.
            await sleep(5)
            return (await tx.tables.createRows(BOT, 'ordersTable', [{ ref, total: 1 }])).rows[0]!.id
          })
        const results = await Promise.all([settle(insertUnlessPresent('order-1')), settle(insertUnlessPresent('order-1'))])
        expect(results.filter((r) => r.ok)).toHaveLength(1)
        const refused = results.filter((r) => !r.ok)
        expect(refused).toHaveLength(1)
        expect(refused[0]).toMatchObject({ error: expect.any(Refused) })
        expect((await backend.tables.findRows(BOT, 'ordersTable', { filter: { ref: 'order-1' } })).rows).toHaveLength(1)
      })

      it('keeps many concurrent check-then-act transactions across ports to one winner', async () => {
        const claimOnce = (worker: number) =>
          backend.transaction(async (tx) => {
            const existing = await tx.jobs.list({ kind: 'contract.singleton' })
            if (existing.length > 0) throw new Refused(`worker ${worker}: already queued`)
            await sleep(1)
            await tx.files.upsert(definition(`winner-${worker}.txt`))
            return (await tx.jobs.enqueue({ kind: 'contract.singleton', payload: { worker } })).job.id
          })
        const results = await Promise.all(Array.from({ length: 6 }, (_, worker) => settle(claimOnce(worker))))
        const winners = results.filter((r): r is { ok: true; value: string } => r.ok)
        expect(winners).toHaveLength(1)
        expect(results.filter((r) => !r.ok).every((r) => (r as { error: unknown }).error instanceof Refused)).toBe(true)
        const jobs = await backend.jobs.list({ kind: 'contract.singleton' })
        expect(jobs.map((job) => job.id)).toEqual([winners[0]!.value])
        const worker = (jobs[0]!.payload as { worker: number }).worker
        expect((await backend.files.list({ botId: BOT, scope: { kind: 'all' }, sortField: 'key', sortDirection: 'asc', pageSize: 10 })).items.map((f) => f.key)).toEqual([`winner-${worker}.txt`])
      })

      it('hides its uncommitted writes from reads on the root ports while it is open', async () => {
        const wrote = latch()
        const release = latch()
        const transaction = backend.transaction(async (tx) => {
          await writeEverywhere(tx, 'pending')
          wrote.open()
          await release.promise
          throw new Refused('rolled back on purpose')
        })
        await wrote.promise
        // Issued while the transaction is open and awaiting: answered now or after it ends, but never with its writes.
        const reads = visible('pending')
        await sleep(20)
        release.open()
        await expect(transaction).rejects.toBeInstanceOf(Refused)
        expect(await within(DEADLOCK_MS, 'a read issued during a transaction', reads)).toEqual({ bot: undefined, file: 0, knowledgeBase: 0, row: 0, job: 0 })
      })

      it('answers a read issued during a transaction, and shows the writes once it commits', async () => {
        const wrote = latch()
        const release = latch()
        const transaction = backend.transaction(async (tx) => {
          await tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'soon' }])
          wrote.open()
          await release.promise
        })
        await wrote.promise
        const during = backend.tables.findRows(BOT, 'ordersTable', { filter: { ref: 'soon' } })
        await sleep(20)
        release.open()
        await transaction
        // Answered during the transaction (without the row) or after the commit (with it); never an error.
        expect([0, 1]).toContain((await within(DEADLOCK_MS, 'a read issued during a transaction', during)).rows.length)
        expect((await backend.tables.findRows(BOT, 'ordersTable', { filter: { ref: 'soon' } })).rows).toHaveLength(1)
      })

      it('does not fold a root-port write made during a transaction into it: the write survives its rollback', async () => {
        const wrote = latch()
        const release = latch()
        const transaction = backend.transaction(async (tx) => {
          await tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'inside' }])
          wrote.open()
          await release.promise
          throw new Refused('rolled back on purpose')
        })
        await wrote.promise
        const outside = backend.tables.createRows(BOT, 'ordersTable', [{ ref: 'outside' }])
        const outsideFile = backend.files.upsert(definition('outside.txt'))
        await sleep(20)
        release.open()
        await expect(transaction).rejects.toBeInstanceOf(Refused)
        await within(DEADLOCK_MS, 'root writes issued during a transaction', Promise.all([outside, outsideFile]))
        expect(await visible('outside')).toMatchObject({ file: 1, row: 1 })
        expect(await visible('inside')).toMatchObject({ row: 0 })
      })

      it('never lets a root-port write waiting for one transaction slip into the next one, which rolls back', async () => {
        const firstOpen = latch()
        const releaseFirst = latch()
        const first = backend.transaction(async (tx) => {
          await tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'first' }])
          firstOpen.open()
          await releaseFirst.promise
        })
        await firstOpen.promise
        // Queued behind the first transaction: a second one that fails, and root writes issued before and after it.
        const second = backend.transaction(async (tx) => {
          await tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'second' }])
          await sleep(5)
          throw new Refused('second rolls back')
        })
        // Its refusal is asserted below; a handler now keeps it from counting as unhandled while `first` is awaited.
        second.catch(() => {})
        const rootWrites = Promise.all([
          backend.tables.createRows(BOT, 'ordersTable', [{ ref: 'root-1' }]),
          backend.jobs.enqueue({ kind: 'contract.test', payload: { tag: 'root-1' } }),
          backend.files.upsert(definition('root-1.txt')),
        ])
        releaseFirst.open()
        await first
        await expect(second).rejects.toBeInstanceOf(Refused)
        await within(DEADLOCK_MS, 'root writes queued behind transactions', rootWrites)
        expect(await visible('root-1')).toMatchObject({ file: 1, row: 1, job: 1 })
        expect(await visible('second')).toMatchObject({ row: 0 })
        expect(await visible('first')).toMatchObject({ row: 1 })
      })

      it('refuses a root-port call inside fn with a clear error instead of waiting for itself', async () => {
        const calls: Array<[string, () => Promise<unknown>]> = [
          ['auth', () => backend.auth.listBots()],
          ['files', () => backend.files.getByKey(BOT, 'a.txt')],
          ['knowledgeBases', () => backend.knowledgeBases.list({ botId: BOT, pageSize: 1 })],
          ['tables', () => backend.tables.createRows(BOT, 'ordersTable', [{ ref: 'root-inside' }])],
          ['jobs', () => backend.jobs.enqueue({ kind: 'contract.test', payload: { tag: 'root-inside' } })],
        ]
        const outcomes = await within(
          DEADLOCK_MS * 3,
          'the transaction',
          backend.transaction(async (tx) => {
            await tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'tx' }])
            const settled: Array<[string, unknown]> = []
            for (const [port, call] of calls) {
              const outcome = await settle(within(DEADLOCK_MS, `backend.${port} inside fn`, call()))
              settled.push([port, outcome.ok ? 'resolved' : outcome.error instanceof Error ? outcome.error.message : String(outcome.error)])
            }
            return settled
          }),
        )
        for (const [port, message] of outcomes) {
          expect({ port, message }).toEqual({ port, message: expect.stringMatching(/transaction/i) })
          expect({ port, message }).toEqual({ port, message: expect.not.stringMatching(/deadlock/) })
        }
        // fn caught the refusals and resolved: its own write committed, the refused ones never happened.
        expect(await visible('tx')).toMatchObject({ row: 1 })
        expect(await visible('root-inside')).toMatchObject({ row: 0, job: 0 })
        expect((await backend.auth.listBots()).length).toBe(0)
      })

      it('refuses a nested backend.transaction inside fn instead of waiting for itself', async () => {
        const outcome = await backend.transaction(async (tx) => {
          await tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'outer' }])
          return settle(within(DEADLOCK_MS, 'a nested transaction', backend.transaction(async (inner) => inner.tables.createRows(BOT, 'ordersTable', [{ ref: 'nested' }]))))
        })
        expect(outcome.ok).toBe(false)
        const message = outcome.ok ? '' : String((outcome.error as Error).message)
        expect(message).toMatch(/transaction/i)
        expect(message).not.toMatch(/deadlock/)
        // Give a wrongly queued nested transaction the time to run after the outer one, had it been queued.
        await sleep(20)
        expect(await visible('outer')).toMatchObject({ row: 1 })
        expect(await visible('nested')).toMatchObject({ row: 0 })
      })

      it('treats work that fn started without awaiting as outside once fn has ended', async () => {
        const go = latch()
        let detached!: Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }>
        await backend.transaction(async (tx) => {
          await tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'tx' }])
          // Work started inside fn that reaches the store only after fn ended (a timer, an event handler, ...).
          detached = settle(
            (async () => {
              await go.promise
              return backend.tables.createRows(BOT, 'ordersTable', [{ ref: 'detached' }])
            })(),
          )
        })
        // It reaches the store while another transaction is open: it waits for it like any other call.
        const holding = latch()
        const release = latch()
        const other = backend.transaction(async (tx) => {
          await tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'other' }])
          holding.open()
          await release.promise
        })
        await holding.promise
        go.open()
        await sleep(20)
        release.open()
        await other
        expect(await within(DEADLOCK_MS, 'work started inside an earlier transaction', detached)).toMatchObject({ ok: true })
        expect(await visible('detached')).toMatchObject({ row: 1 })
        // And a transaction it starts is a transaction of its own.
        const later = latch()
        let nested!: Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }>
        await backend.transaction(async () => {
          nested = settle(
            (async () => {
              await later.promise
              return backend.transaction(async (tx) => tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'own' }]))
            })(),
          )
        })
        later.open()
        expect(await within(DEADLOCK_MS, 'a transaction started by work an earlier transaction began', nested)).toMatchObject({ ok: true })
        expect(await visible('own')).toMatchObject({ row: 1 })
      })

      it('runs transactions one after another, each seeing the previous one\'s commit', async () => {
        const increments = Array.from({ length: 5 }, () =>
          backend.transaction(async (tx) => {
            const { rows } = await tx.tables.findRows(BOT, 'ordersTable', { filter: { ref: 'counter' } })
            await sleep(1)
            if (rows.length === 0) await tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'counter', total: 1 }])
            else await tx.tables.updateRows(BOT, 'ordersTable', [{ id: rows[0]!.id, total: (rows[0]!['total'] as number) + 1 }])
          }),
        )
        await Promise.all(increments)
        const { rows } = await backend.tables.findRows(BOT, 'ordersTable', { filter: { ref: 'counter' } })
        expect(rows.map((r) => r['total'])).toEqual([5])
      })
    })

    describe('clock, ping and migrations', () => {
      it('stamps every port with the clock it was opened with, which it exposes as now', async () => {
        expect(backend.now().getTime()).toBe(START)
        current = START + 42_000
        expect(backend.now().getTime()).toBe(START + 42_000)
        const bot = await backend.auth.createBot()
        const { file } = await backend.files.upsert(definition('clock.txt'))
        const { job } = await backend.jobs.enqueue({ kind: 'contract.clock' })
        const { rows } = await backend.tables.createRows(BOT, 'ordersTable', [{ ref: 'clock' }])
        for (const at of [bot.createdAt, file.createdAt, job.createdAt, rows[0]!.createdAt!]) expect(Date.parse(at)).toBe(START + 42_000)
      })

      it('names its engine and answers ping', async () => {
        expect(backend.kind).toEqual(expect.any(String))
        expect(backend.kind.length).toBeGreaterThan(0)
        await expect(backend.ping()).resolves.toBeUndefined()
      })

      it('closes after the open transaction ends, which still commits; closed, it answers nothing', async () => {
        const open = latch()
        const release = latch()
        const transaction = backend.transaction(async (tx) => {
          await tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'last' }])
          open.open()
          await release.promise
          return (await tx.tables.findRows(BOT, 'ordersTable', { filter: { ref: 'last' } })).rows.length
        })
        await open.promise
        const closing = backend.close()
        await sleep(20)
        release.open()
        expect(await transaction).toBe(1)
        await within(DEADLOCK_MS, 'close', closing)
        await expect(backend.ping()).rejects.toThrow()
        await expect(backend.files.getByKey(BOT, 'a.txt')).rejects.toThrow()
        await expect(backend.close()).resolves.toBeUndefined()
      })

      it('refuses close inside a transaction\'s fn, and closes for real when asked again afterwards', async () => {
        const refused = await backend.transaction(async (tx) => {
          await tx.tables.createRows(BOT, 'ordersTable', [{ ref: 'kept' }])
          return settle(within(DEADLOCK_MS, 'close inside fn', backend.close()))
        })
        expect(refused.ok).toBe(false)
        expect(refused.ok ? '' : String((refused.error as Error).message)).toMatch(/transaction/i)
        // Still open: the refused close changed nothing.
        expect(await visible('kept')).toMatchObject({ row: 1 })
        await backend.close()
        await expect(backend.ping()).rejects.toThrow()
      })

      it('migrates again without harm: data and ports stay as they were', async () => {
        await writeEverywhere(backend, 'before')
        await backend.migrate()
        await backend.migrate()
        expect(await visible('before')).toEqual({ bot: undefined, file: 1, knowledgeBase: 1, row: 1, job: 1 })
        await writeEverywhere(backend, 'after')
        expect(await visible('after')).toMatchObject({ file: 1, knowledgeBase: 1, row: 1, job: 1 })
        await expect(backend.ping()).resolves.toBeUndefined()
      })
    })
  })
}
