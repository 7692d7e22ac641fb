import { join } from 'node:path'
import postgres from 'postgres'
import { createLocalFolderBlobStore, type BlobStore } from '../../blobs/index.js'
import { dataFolder, ensureDataFolder } from '../../platform/index.js'
import { BotshelfError } from 'botshelf/api'
import type { Backend, BackendPorts } from '../backend.js'
import { systemClock, type Clock } from '../clock.js'
import type { TablesPort } from '../tables/tables-port.js'
import type { SearchIndexPort } from '../search/search-port.js'
import { PgAuthPort, postgresAuthMigrations } from './auth/index.js'
import { PgDatasetPort } from './dataset/index.js'
import { checkConnectOptions, connectPostgres, redactUrl } from './connect.js'
import { PgFilesPort, PgKnowledgeBasesPort, postgresFilesMigrations } from './files/index.js'
import { guardedPort, type PortGuard } from './guarded-port.js'
import { PgJobQueue, postgresJobsMigrations } from './jobs/index.js'
import { PgComputedCells, postgresComputedMigrations } from './computed/index.js'
import { runPgMigrations } from './migrations.js'
import type { PgMigration, PgSql } from './pg-types.js'
import { rootScope, transactionScope, type PgScope } from './pg-scope.js'
import { portMethods } from '../port-methods.js'
import { readOnlyMethods } from './retried-reads.js'
import { isConnectionLost, isRetryableConflict, serializable } from './serializable.js'
import { createPostgresSearchPort, postgresSearchMigrations, type VectorMode, vectorModeOf } from './search/index.js'
import { createPostgresTablesPort, postgresTablesMigrations } from './tables/index.js'
import { explainUnstorableText } from './text-limits.js'
import { TransactionGuard } from './transaction-guard.js'
import { PgWebhooksPort, postgresWebhooksMigrations } from './webhooks/index.js'

/**
 * A tables port for PostgreSQL and its migrations, plugged into {@link openPostgresBackend}.
 *
 * @example
 * ```ts
 * const tables: PostgresTablesAdapter = { create: createPostgresTablesPort, migrations: postgresTablesMigrations }
 * ```
 */
export interface PostgresTablesAdapter {
  /**
   * Builds the port on a connection: the pool, or a transaction for `backend.transaction`; `vectors` is how the
   * search index stores vectors, for row vectors (decision 0860).
   */
  create(sql: PgSql, deps: { now: Clock; vectors?: VectorMode }): TablesPort
  /** Its schema steps, run after those of the other ports. */
  migrations: ReadonlyArray<PgMigration>
}

/** Options of {@link openPostgresBackend}. */
export interface PostgresBackendOptions {
  /**
   * The database: `postgres://user:password@host:port/database`.
   *
   * @example
   * ```ts
   * await openPostgresBackend({ url: 'postgres://postgres@127.0.0.1:5432/botshelf', dataDir: './.botshelf' })
   * ```
   */
  url: string
  /**
   * Where file content goes (any `BlobStore`, e.g. S3). Without it, the local folder `<dataDir>/content`.
   *
   * @example
   * ```ts
   * await openPostgresBackend({ url, blobs: createLocalFolderBlobStore({ root: '/srv/botshelf/content' }) })
   * ```
   */
  blobs?: BlobStore
  /**
   * The data folder whose `content/` holds file content when no `blobs` store is given.
   *
   * @example
   * ```ts
   * await openPostgresBackend({ url, dataDir: './.botshelf' })
   * ```
   */
  dataDir?: string
  /**
   * The clock every port stamps times with (default: the wall clock).
   *
   * @example
   * ```ts
   * await openPostgresBackend({ url, dataDir, now: () => new Date('2026-01-01T00:00:00Z') })
   * ```
   */
  now?: Clock
  /**
   * Connections this server keeps to PostgreSQL (default 10). Servers × poolSize must stay under the
   * database's `max_connections`.
   *
   * @example
   * ```ts
   * await openPostgresBackend({ url, dataDir, poolSize: 20 })
   * ```
   */
  poolSize?: number
  /**
   * The longest one statement may run, in milliseconds (default 30 000; 0 = no limit). Migrations are exempt.
   *
   * @example
   * ```ts
   * await openPostgresBackend({ url, dataDir, statementTimeoutMs: 10_000 })
   * ```
   */
  statementTimeoutMs?: number
  /**
   * The schema every table lives in (default `public`), created by the migrations when missing.
   *
   * @example
   * ```ts
   * await openPostgresBackend({ url, dataDir, schema: 'botshelf' })
   * ```
   */
  schema?: string
  /**
   * Apply pending migrations while opening (default true; safe with several servers starting at once).
   *
   * @example
   * ```ts
   * await openPostgresBackend({ url, dataDir, migrate: false }) // a database `botshelf migrate` prepared
   * ```
   */
  migrate?: boolean
  /**
   * The tables port and its migrations (default: the built-in PostgreSQL tables port, user tables as real
   * PostgreSQL tables). Another adapter replaces it, e.g. an instrumented one in a bench.
   *
   * @example
   * ```ts
   * await openPostgresBackend({ url, dataDir, tables: { create: createPostgresTablesPort, migrations: postgresTablesMigrations } })
   * ```
   */
  tables?: PostgresTablesAdapter
}

/** The PostgreSQL backend: the backend object plus what it was opened on. */
export interface PostgresBackend extends Backend {
  /** The database URL without its password. */
  readonly url: string
  /** The schema of its tables. */
  readonly schema: string
  /** The migrations this open applied (empty when the database was up to date). */
  readonly appliedMigrations: ReadonlyArray<string>
  /** The data folder of local content, or `null` when content goes to the `blobs` store given. */
  readonly dataDir: string | null
  /**
   * The ids of the migrations this database has not run yet (all of them on an empty database).
   *
   * @example
   * ```ts
   * if ((await backend.pendingMigrations()).length > 0) console.log('run botshelf migrate first')
   * ```
   */
  pendingMigrations(): Promise<string[]>
}

/** The migrations of every port but tables, in order. */
const coreMigrations: ReadonlyArray<PgMigration> = [...postgresAuthMigrations, ...postgresFilesMigrations, ...postgresJobsMigrations, ...postgresComputedMigrations, ...postgresWebhooksMigrations]

/**
 * The migrations of the PostgreSQL backend with its built-in tables port, in order (another tables adapter's
 * replace the tables ones).
 *
 * @example
 * ```ts
 * await runPgMigrations(sql, postgresMigrations, 'public')
 * ```
 */
export const postgresMigrations: ReadonlyArray<PgMigration> = [...coreMigrations, ...postgresTablesMigrations, ...postgresSearchMigrations({ vectors: 'detect' })]

/**
 * Opens the PostgreSQL backend: a connection pool (statement timeout and schema set on every connection),
 * migrated unless told not to, with file content in `blobs` or the data folder. Any number of servers may open
 * the same database at once: they share the data, the jobs and the signing key.
 *
 * - `transaction(fn)` runs `fn` in a SERIALIZABLE transaction and runs it again when PostgreSQL reports a
 *   serialization conflict, so check-then-act is atomic across servers (decision 0902); `fn` must be store calls
 *   and pure checks. A root-port call or a nested transaction inside `fn` is refused, as on SQLite.
 * - Port calls of several statements are transactions of their own; single statements run as they are.
 * - A lost connection (database restart, terminated backend) is replaced on the next call.
 *
 * @example
 * ```ts
 * const backend = await openPostgresBackend({ url: 'postgres://postgres@127.0.0.1:5432/botshelf', dataDir: './.botshelf' })
 * await backend.auth.listBots()
 * await backend.close()
 * ```
 */
export async function openPostgresBackend(options: PostgresBackendOptions): Promise<PostgresBackend> {
  checkConnectOptions(options)
  if (!options.blobs && !options.dataDir) {
    throw new RangeError('blobs: expected a BlobStore, or dataDir: a folder for file content; received neither')
  }
  const now = options.now ?? systemClock
  const schema = options.schema ?? 'public'
  let dataDir: string | null = null
  let blobs: BlobStore
  if (options.blobs) blobs = options.blobs
  else {
    const folder = dataFolder(options.dataDir!)
    ensureDataFolder(folder)
    dataDir = folder.root
    blobs = createLocalFolderBlobStore({ root: join(folder.contentDir, 'files') })
  }
  const sql = connectPostgres(options)
  const tables = options.tables ?? builtInTables
  let vectors: VectorMode = 'exact'
  let migrations: PgMigration[] = []
  let appliedMigrations: string[] = []
  try {
    migrations = [...coreMigrations, ...tables.migrations, ...postgresSearchMigrations({ vectors: 'detect' })]
    if (options.migrate !== false) appliedMigrations = await runPgMigrations(sql, migrations, schema)
    // Vectors through pgvector (HNSW) when the index was made with it, else exact search in the process.
    vectors = await vectorModeOf(sql)
  } catch (error) {
    await sql.end({ timeout: 1 })
    throw new BotshelfError(
      'Internal',
      'DATABASE_UNAVAILABLE',
      `Could not prepare the PostgreSQL database at ${redactUrl(options.url)}: ${error instanceof Error ? error.message : String(error)}`,
    )
  }

  const transactions = new TransactionGuard()
  const active = new Set<Promise<unknown>>()
  let closing = false
  let closed = false
  const assertOpen = (what: string) => {
    if (closing || closed) throw new BotshelfError('Internal', 'BACKEND_CLOSED', `${what}: the PostgreSQL backend is closed`)
  }

  const portsOn = (scope: PgScope, tablesSql: PgSql, guard: PortGuard): BackendPorts => ({
    auth: guardedPort(new PgAuthPort(scope, now), portMethods.auth, 'backend.auth', guard),
    files: guardedPort(new PgFilesPort(scope, now), portMethods.files, 'backend.files', guard),
    knowledgeBases: guardedPort(new PgKnowledgeBasesPort(scope, now), portMethods.knowledgeBases, 'backend.knowledgeBases', guard),
    tables: guardedTables(tables.create(tablesSql, { now, vectors }), guard),
    jobs: guardedPort(new PgJobQueue(scope, now), portMethods.jobs, 'backend.jobs', guard),
    computed: guardedPort(new PgComputedCells(scope, now), portMethods.computed, 'backend.computed', guard),
    search: guardedSearch(createPostgresSearchPort(tablesSql, { now, vectors }), guard),
    dataset: guardedPort(new PgDatasetPort(tablesSql, vectors), portMethods.dataset, 'backend.dataset', guard),
    webhooks: guardedPort(new PgWebhooksPort(scope, now), portMethods.webhooks, 'backend.webhooks', guard),
  })

  const rootPorts = portsOn(rootScope(sql), sql, {
    before(what) {
      assertOpen(what)
      transactions.assertOutside(what)
    },
    // A read is run once more on a new connection when the one under it was lost (the database restarted).
    retryOnce: (method, error) => readOnlyMethods.has(method) && isConnectionLost(error),
    translate: explainUnstorableText,
  })

  const backend: PostgresBackend = {
    kind: 'postgres',
    url: redactUrl(options.url),
    schema,
    appliedMigrations,
    dataDir,
    now,
    blobs,
    ...rootPorts,
    async transaction(fn) {
      transactions.assertOutside('backend.transaction')
      assertOpen('backend.transaction')
      const run = serializable(sql, async (tx) => {
        // A failed statement aborts a PostgreSQL transaction: even when fn catches it, the attempt cannot commit.
        let failed: unknown
        let ended = false
        const ports = portsOn(transactionScope(tx), tx, {
          // Ports kept past fn would run on a connection back in the pool, outside any transaction.
          before: (what) => {
            if (ended) throw new BotshelfError('Internal', 'TRANSACTION_ENDED', `${what.replace(/^backend\./, 'tx.')}: the transaction these ports belong to has ended`)
          },
          onError: (error) => {
            if (error instanceof postgres.PostgresError || isConnectionLost(error)) failed ??= error
          },
          translate: explainUnstorableText,
        })
        let result: Awaited<ReturnType<typeof fn>>
        try {
          result = await transactions.run(() => fn(ports))
        } catch (error) {
          ended = true
          // fn may have turned a lost race or connection into an error of its own: that loss decides (a retry).
          if (isRetryableConflict(failed) || isConnectionLost(failed)) throw failed
          throw error
        }
        ended = true
        if (failed !== undefined) throw explainUnstorableText(failed)
        return result
      })
      active.add(run)
      try {
        return await run
      } finally {
        active.delete(run)
      }
    },
    async readSnapshot(fn) {
      transactions.assertOutside('backend.readSnapshot')
      assertOpen('backend.readSnapshot')
      const attempt = () =>
        sql.begin('isolation level repeatable read read only', async (tx) => {
          let ended = false
          const ports = portsOn(transactionScope(tx), tx, {
            before: (what) => {
              if (ended) throw new BotshelfError('Internal', 'TRANSACTION_ENDED', `${what.replace(/^backend\./, 'snapshot.')}: the snapshot these ports belong to has ended`)
            },
            translate: explainUnstorableText,
          })
          try {
            // Wrapped: an array result would otherwise be awaited element by element by the driver.
            return { value: await transactions.run(() => fn(ports)) }
          } finally {
            ended = true
          }
        }) as Promise<{ value: Awaited<ReturnType<typeof fn>> }>
      const run = attempt().catch((error: unknown) => {
        // A table dropped after the snapshot began is still in its catalog: a new snapshot sees it gone.
        if (isConnectionLost(error) || droppedMeanwhile(error)) return attempt()
        throw error
      })
      active.add(run)
      try {
        return (await run).value
      } finally {
        active.delete(run)
      }
    },
    async ping() {
      assertOpen('backend.ping')
      await sql`SELECT 1`.catch((error: unknown) => {
        if (!isConnectionLost(error)) throw error
        return sql`SELECT 1`
      })
    },
    async pendingMigrations() {
      assertOpen('backend.pendingMigrations')
      const [table] = await sql<Array<{ found: string | null }>>`SELECT to_regclass('botshelf_migrations')::text AS found`
      if (!table?.found) return migrations.map((migration) => migration.id)
      const done = new Set((await sql<Array<{ id: string }>>`SELECT id FROM botshelf_migrations`).map((row) => row.id))
      return migrations.filter((migration) => !done.has(migration.id)).map((migration) => migration.id)
    },
    async migrate() {
      assertOpen('backend.migrate')
      transactions.assertOutside('backend.migrate')
      await runPgMigrations(sql, migrations, schema)
    },
    async close() {
      if (closed) return
      transactions.assertOutside('backend.close')
      closing = true
      // Open transactions finish (and commit) first; new calls are refused from now on.
      while (active.size > 0) await Promise.allSettled([...active])
      if (closed) return
      closed = true
      await sql.end({ timeout: 5 })
    },
  }
  return backend
}

/** A statement named a table or column a change committed after the snapshot began had dropped (SQLSTATE 42P01, 42703). */
function droppedMeanwhile(error: unknown): boolean {
  return error instanceof postgres.PostgresError && (error.code === '42P01' || error.code === '42703')
}

const builtInTables: PostgresTablesAdapter = { create: createPostgresTablesPort, migrations: postgresTablesMigrations }

/** The tables port of an adapter, guarded like the others: every method it has (own or of its class). */
function guardedSearch(port: SearchIndexPort, guard: PortGuard): SearchIndexPort {
  const names = new Set([...Object.keys(port), ...Object.getOwnPropertyNames(Object.getPrototypeOf(port))])
  const methods = [...names].filter((key) => key !== 'constructor' && typeof (port as unknown as Record<string, unknown>)[key] === 'function')
  return guardedPort(port, methods as Array<keyof SearchIndexPort>, 'backend.search', guard)
}

function guardedTables(port: TablesPort, guard: PortGuard): TablesPort {
  const names = new Set([...Object.keys(port), ...Object.getOwnPropertyNames(Object.getPrototypeOf(port))])
  const methods = [...names].filter((key) => key !== 'constructor' && typeof (port as unknown as Record<string, unknown>)[key] === 'function')
  return guardedPort(port, methods as Array<keyof TablesPort>, 'backend.tables', guard)
}
