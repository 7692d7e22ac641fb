import type { AuthPort } from './auth/auth-port.js'
import type { ComputedCellsPort } from './computed/computed-cells-port.js'
import type { DatasetPort } from './dataset/dataset-port.js'
import type { FilesPort, KnowledgeBasesPort } from './files/files-port.js'
import type { JobQueue } from './jobs/job-queue.js'
import type { SearchIndexPort } from './search/search-port.js'
import type { TablesPort } from './tables/tables-port.js'
import type { WebhooksPort } from './webhooks/webhooks-port.js'

/**
 * The methods of each port, by name: what an adapter wraps (SQLite's `asyncPort`, PostgreSQL's `guardedPort`).
 * One list for every backend; the compiler checks each name against its port and fails when a port gains a method
 * its list does not name.
 *
 * @example
 * ```ts
 * const files: FilesPort = asyncPort(new FilesRepository(db), portMethods.files)
 * ```
 */
export const portMethods = {
  auth: ['ensureWorkspace', 'createBot', 'listBots', 'getBot', 'createToken', 'listTokens', 'revokeToken', 'authenticate', 'signingKey'] as const satisfies ReadonlyArray<keyof AuthPort>,
  files: [
    'getById',
    'getAnyById',
    'getByKey',
    'upsert',
    'completeUpload',
    'failUpload',
    'requestIndexing',
    'finishIndexing',
    'updateMetadata',
    'copy',
    'delete',
    'deleteExpired',
    'blobsInUse',
    'usage',
    'list',
    'listTagKeys',
    'listTagValues',
  ] as const satisfies ReadonlyArray<keyof FilesPort>,
  knowledgeBases: ['create', 'get', 'update', 'delete', 'list'] as const satisfies ReadonlyArray<keyof KnowledgeBasesPort>,
  computed: ['resetCells', 'restoreCells', 'claimCells', 'settleCell', 'settleAnswered', 'releaseCell', 'cellsOf', 'countStaleRows', 'hasDueCells', 'tablesWithDueCells', 'deleteCells'] as const satisfies ReadonlyArray<keyof ComputedCellsPort>,
  jobs: ['enqueue', 'claim', 'heartbeat', 'complete', 'fail', 'get', 'list', 'nextDueAt'] as const satisfies ReadonlyArray<keyof JobQueue>,
  dataset: ['readPage', 'count', 'writeRecords', 'isEmpty'] as const satisfies ReadonlyArray<keyof DatasetPort>,
  webhooks: [
    'createWebhook',
    'getWebhook',
    'listWebhooks',
    'countWebhooks',
    'updateWebhook',
    'deleteWebhook',
    'subscribers',
    'addDelivery',
    'getDelivery',
    'updateDelivery',
    'listDeliveries',
  ] as const satisfies ReadonlyArray<keyof WebhooksPort>,
  search: [
    'replacePassages',
    'deleteFilePassages',
    'search',
    'listPassages',
    'passagesAround',
    'usage',
    'staleFiles',
    'countStale',
    'setPassageVectors',
  ] as const satisfies ReadonlyArray<keyof SearchIndexPort>,
  tables: [
    'loadTable',
    'listTables',
    'createTable',
    'getTable',
    'storedBytes',
    'getOrCreateTable',
    'deleteTable',
    'duplicateTable',
    'renameColumn',
    'updateTable',
    'getRow',
    'createRows',
    'stageImportRows',
    'stagedImportRows',
    'publishImportRows',
    'dropImportStaging',
    'importRows',
    'updateRows',
    'upsertRows',
    'deleteRows',
    'findRows',
    'listJobs',
    'createJob',
    'getJob',
    'updateJob',
    'rowVectorCounts',
    'claimStaleRows',
    'setRowVectors',
    'tablesWithStaleRows',
    'restoreTable',
    'restoreRows',
  ] as const satisfies ReadonlyArray<keyof TablesPort>,
}

/**
 * The methods of each port that never write. SQLite's root ports answer them without waiting for the write-ahead
 * log's fsync (decision 1210, unless the connection's change counter moved during the call all the same); PostgreSQL
 * runs them once more when the connection was lost under them (decision 0902). Any method not named here is a write.
 *
 * @example
 * ```ts
 * readOnlyPortMethods.files.includes('list') // true
 * ```
 */
export const readOnlyPortMethods = {
  auth: ['listBots', 'getBot', 'listTokens', 'authenticate'],
  files: ['usage', 'getById', 'getAnyById', 'getByKey', 'blobsInUse', 'list', 'listTagKeys', 'listTagValues'],
  knowledgeBases: ['get', 'list'],
  computed: ['cellsOf', 'countStaleRows', 'hasDueCells', 'tablesWithDueCells'],
  tables: ['loadTable', 'listTables', 'getTable', 'getRow', 'findRows', 'listJobs', 'getJob', 'stagedImportRows', 'rowVectorCounts', 'tablesWithStaleRows'],
  jobs: ['get', 'list', 'nextDueAt'],
  search: ['search', 'listPassages', 'passagesAround', 'usage', 'staleFiles', 'countStale'],
  dataset: ['readPage', 'count', 'isEmpty'],
  webhooks: ['getWebhook', 'listWebhooks', 'countWebhooks', 'subscribers', 'getDelivery', 'listDeliveries'],
} as const satisfies { [Port in keyof typeof portMethods]: ReadonlyArray<(typeof portMethods)[Port][number]> }

// Fails to compile when a port gains a method its list does not name.
type OnlyNever<T extends never> = T
export type UnlistedPortMethods = OnlyNever<
  | Exclude<keyof AuthPort, (typeof portMethods.auth)[number]>
  | Exclude<keyof FilesPort, (typeof portMethods.files)[number]>
  | Exclude<keyof KnowledgeBasesPort, (typeof portMethods.knowledgeBases)[number]>
  | Exclude<keyof JobQueue, (typeof portMethods.jobs)[number]>
  | Exclude<keyof ComputedCellsPort, (typeof portMethods.computed)[number]>
  | Exclude<keyof DatasetPort, (typeof portMethods.dataset)[number]>
  | Exclude<keyof SearchIndexPort, (typeof portMethods.search)[number]>
  | Exclude<keyof TablesPort, (typeof portMethods.tables)[number]>
  | Exclude<keyof WebhooksPort, (typeof portMethods.webhooks)[number]>
>

/**
 * Writes that may answer once committed, before the commit is on the disk, where an engine flushes commits in groups
 * (SQLite, decision 1459): the steps of a table import, whose outcome is acknowledged by the job's completion, a
 * durable write that flushes them with it. A crash before that loses whole steps at most, each with its resume
 * point, and the job goes on from what survived. PostgreSQL answers every commit once durable.
 *
 * @example
 * ```ts
 * writeBehindPortMethods.tables.includes('publishImportRows') // true
 * ```
 */
export const writeBehindPortMethods = {
  tables: ['stageImportRows', 'publishImportRows'],
} as const satisfies { [Port in keyof typeof portMethods]?: ReadonlyArray<(typeof portMethods)[Port][number]> }
