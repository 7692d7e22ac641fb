import type { BlobStore } from '../blobs/index.js'
import type { AuthPort } from './auth/index.js'
import type { ComputedCellsPort } from './computed/index.js'
import type { Clock } from './clock.js'
import type { DatasetPort } from './dataset/index.js'
import type { FilesPort, KnowledgeBasesPort } from './files/index.js'
import type { JobQueue } from './jobs/index.js'
import type { SearchIndexPort } from './search/index.js'
import type { TablesPort } from './tables/index.js'
import type { WebhooksPort } from './webhooks/index.js'

/**
 * The metadata ports of a backend. Inside `backend.transaction(fn)`, `fn` receives the same ports bound to the
 * transaction.
 */
export interface BackendPorts {
  readonly auth: AuthPort
  readonly files: FilesPort
  readonly knowledgeBases: KnowledgeBasesPort
  readonly tables: TablesPort
  /** The statuses and staleness of computed columns, per row (decision 1422). */
  readonly computed: ComputedCellsPort
  readonly jobs: JobQueue
  readonly search: SearchIndexPort
  /** Every record as stored, for `botshelf export` / `botshelf import` only. */
  readonly dataset: DatasetPort
  /** Storage event subscriptions and their deliveries (the outbox, decision 1411). */
  readonly webhooks: WebhooksPort
}

/**
 * One storage backend: the metadata ports, the blob store for content, transactions, migrations and close.
 * The service only ever talks to this object; `openSqliteBackend` builds the embedded one.
 *
 * @example
 * ```ts
 * const backend = await openSqliteBackend({ dataDir: './.botshelf' })
 * const app = await createApp({ backend })
 * ```
 */
export interface Backend extends BackendPorts {
  /** The engine, for logs and test names (`sqlite`, `sqlite-memory`, ...). */
  readonly kind: string
  /** File content. */
  readonly blobs: BlobStore
  /** The clock every port stamps times with. */
  readonly now: Clock
  /**
   * Runs `fn` with ports bound to one transaction: it commits when `fn` resolves and rolls back when it throws,
   * so a check-then-act inside is atomic on every backend. Keep `fn` to store calls: no blob I/O, no network
   * waits (on SQLite other store calls wait while it runs). Ports used outside `tx` inside `fn` do not see its
   * uncommitted writes.
   */
  transaction<T>(fn: (tx: BackendPorts) => Promise<T>): Promise<T>
  /**
   * Runs reads that must agree with each other (a row and its computed cells) with ports on one snapshot
   * (decision 1479). PostgreSQL: one REPEATABLE READ, READ ONLY transaction, so a commit made meanwhile by another
   * connection is not seen by any of them; `fn` runs once more, in a new snapshot, when a table it read was dropped
   * meanwhile or the connection was lost, so keep it to reads. SQLite: the backend's own ports, as a plain call
   * (nothing added to the read path; see decision 1479 for what one connection gives). Writes inside are refused on
   * PostgreSQL.
   *
   * @example
   * ```ts
   * const row = await backend.readSnapshot(async (ports) => {
   *   const row = await ports.tables.getRow(botId, tableId, 1)
   *   return { row, cells: await ports.computed.cellsOf(tableId, [row.id]) }
   * })
   * ```
   */
  readSnapshot<T>(fn: (ports: BackendPorts) => Promise<T>): Promise<T>
  /** Resolves when the backend answers a trivial query (`GET /health`); rejects otherwise. */
  ping(): Promise<void>
  /** Applies the migrations of every port that have not run yet; safe to call again. */
  migrate(): Promise<void>
  /** Closes connections. The backend is unusable afterwards. */
  close(): Promise<void>
}
