import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe } from 'vitest'
import { describeAuthPortContract } from './auth/auth-port.contract.js'
import { describeBackendContract } from './backend.contract.js'
import { describeComputedCellsContract } from './computed/computed-cells.contract.js'
import type { Backend } from './backend.js'
import type { Clock } from './clock.js'
import { describeDatasetPortContract } from './dataset/dataset-port.contract.js'
import { describeFilesPortContract } from './files/files-port.contract.js'
import { describeJobQueueContract } from './jobs/job-queue.contract.js'
import { openPostgresBackend, openSqliteBackend } from './open-backend.js'
import { createTestDatabase } from './postgres/test-database.test-support.js'
import { openSearchTestBackend } from './postgres/search/search-test-backend.test-support.js'
import { pgliteDatabase, realPostgresDatabase } from './postgres/search/test-databases.test-support.js'
import { describeSearchPortContract } from './search/search-port.contract.js'
import { describeTablesPortContract } from './tables/tables-port.contract.js'
import { describeWebhooksPortContract } from './webhooks/webhooks-port.contract.js'

// The one runner of the port contracts: every contract runs, unchanged, against every backend of the list below.
// Adding a backend is adding an entry; tests of one engine's own behaviour stay in its adapter folder.

type Opened<B> = { backend: B; close(): Promise<void> }
type Open<B> = (now: Clock) => Promise<Opened<B>>

/** A backend under test: made ready once (a database, say) before its contracts, undone after. */
interface ContractTarget<B> {
  name: string
  setUp(): Promise<{ open: Open<B>; tearDown(): Promise<void> }>
  /** The contracts it runs (a target that stands for one port runs that port's). */
  contracts: ReadonlyArray<Contract<B>>
}

type Contract<B> = (name: string, open: Open<B>) => void

/** Every contract of a whole backend. */
const backendContracts: ReadonlyArray<Contract<Backend>> = [
  describeAuthPortContract,
  describeFilesPortContract,
  describeTablesPortContract,
  describeBackendContract,
  describeDatasetPortContract,
  describeSearchPortContract,
  describeComputedCellsContract,
  describeWebhooksPortContract,
  (name, open) => describeJobQueueContract(name, async (now) => queueOf(await open(now))),
]

function queueOf({ backend, close }: Opened<Backend>): { queue: Backend['jobs']; close(): Promise<void> } {
  return { queue: backend.jobs, close }
}

/** A short bound on waits for an open transaction, so the refusal of a call made from inside one comes fast. */
const transactionWaitMs = 250

/** The embedded backend in a fresh data folder under the system temp dir, removed on close. */
const sqliteFile: ContractTarget<Backend> = {
  name: 'sqlite',
  contracts: backendContracts,
  setUp: async () => ({
    tearDown: async () => {},
    open: async (now) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'botshelf-contracts-'))
      try {
        const backend = await openSqliteBackend({ dataDir, now, transactionWaitMs })
        return { backend, close: () => closeThenRemove(backend, dataDir) }
      } catch (error) {
        rmSync(dataDir, { recursive: true, force: true })
        throw error
      }
    },
  }),
}

/** The embedded backend in memory (its temporary content folder goes with close). */
const sqliteMemory: ContractTarget<Backend> = {
  name: 'sqlite-memory',
  contracts: backendContracts,
  setUp: async () => ({
    tearDown: async () => {},
    open: async (now) => {
      const backend = await openSqliteBackend({ memory: true, now, transactionWaitMs })
      return { backend, close: () => backend.close() }
    },
  }),
}

/**
 * PostgreSQL: one database for the target, migrated once; each test opens a backend on it and, on close, drops what
 * it made at run time (user tables, `ut_<ulid>`, their vector and staging tables, functions) and empties the rest
 * (`resetSchema`): a migrated, empty backend again.
 * Its search index runs the search contract in the two targets below, which choose the vector mode.
 */
const postgresServer: ContractTarget<Backend> = {
  name: 'postgres',
  contracts: backendContracts.filter((contract) => contract !== describeSearchPortContract),
  setUp: async () => {
    const database = await createTestDatabase()
    const schema = database.freshSchema()
    return {
      tearDown: () => database.drop(),
      open: async (now) => {
        const dataDir = mkdtempSync(join(tmpdir(), 'botshelf-pg-contracts-'))
        try {
          const backend = await openPostgresBackend({ url: database.url, dataDir, now, schema, poolSize: 4 })
          await database.notePristine(schema)
          const close = async (): Promise<void> => {
            await backend.close()
            await database.resetSchema(schema)
          }
          return { backend, close: () => removeAfter(close, dataDir) }
        } catch (error) {
          rmSync(dataDir, { recursive: true, force: true })
          throw error
        }
      },
    }
  },
}

/** PostgreSQL's search index on the real server (it has no pgvector): exact vectors, a fresh schema per test. */
const postgresExactVectors: ContractTarget<Backend> = {
  name: 'postgres, exact vectors',
  contracts: [describeSearchPortContract],
  setUp: async () => {
    const real = await realPostgresDatabase()
    return {
      tearDown: () => real.drop(),
      open: async (now) => {
        const { sql, close } = await real.openSchema()
        return { backend: await openSearchTestBackend(sql, now, 'exact'), close }
      },
    }
  },
}

/** PostgreSQL's search index on PGlite with pgvector: the vector column, the <=> operator and HNSW indexes. */
const pglitePgvector: ContractTarget<Backend> = {
  name: 'pglite, pgvector',
  contracts: [describeSearchPortContract],
  setUp: async () => {
    const lite = await pgliteDatabase({ withVector: true })
    return {
      tearDown: () => lite.drop(),
      open: async (now) => {
        const { sql, close } = await lite.openSchema()
        return { backend: await openSearchTestBackend(sql, now, 'pgvector'), close }
      },
    }
  },
}

async function closeThenRemove(backend: Backend, dataDir: string): Promise<void> {
  await removeAfter(() => backend.close(), dataDir)
}

async function removeAfter(close: () => Promise<void>, dataDir: string): Promise<void> {
  try {
    await close()
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

function describeTarget<B>(target: ContractTarget<B>): void {
  describe(`${target.name}`, () => {
    let ready: Awaited<ReturnType<ContractTarget<B>['setUp']>> | undefined
    beforeAll(async () => {
      ready = await target.setUp()
    })
    afterAll(async () => {
      await ready?.tearDown()
    })
    const open: Open<B> = (now) => ready!.open(now)
    for (const contract of target.contracts) contract(target.name, open)
  })
}

// The tables port runs its contract inside the PostgreSQL backend above, in a schema that is not `public`; its
// differential check against mingo runs on both engines in test/tables/differential.test.ts. A target for the
// tables port alone ran both a second time (~12 s of each run) and was removed.
for (const target of [sqliteFile, sqliteMemory, postgresServer, postgresExactVectors, pglitePgvector]) describeTarget(target)
