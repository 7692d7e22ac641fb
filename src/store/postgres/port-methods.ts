import type { AuthPort } from '../auth/auth-port.js'
import type { DatasetPort } from '../dataset/dataset-port.js'
import type { FilesPort, KnowledgeBasesPort } from '../files/files-port.js'
import type { JobQueue } from '../jobs/job-queue.js'

/** The methods of each port the PostgreSQL backend wraps (the compiler checks each name against its port). */
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
    'blobInUse',
    'usage',
    'list',
    'listTagKeys',
    'listTagValues',
  ] as const satisfies ReadonlyArray<keyof FilesPort>,
  knowledgeBases: ['create', 'get', 'update', 'delete', 'list'] as const satisfies ReadonlyArray<keyof KnowledgeBasesPort>,
  jobs: ['enqueue', 'claim', 'heartbeat', 'complete', 'fail', 'get', 'list', 'nextDueAt'] as const satisfies ReadonlyArray<keyof JobQueue>,
  dataset: ['readPage', 'count', 'writeRecords', 'isEmpty'] as const satisfies ReadonlyArray<keyof DatasetPort>,
}

// Fails to compile when a port gains a method its list does not name.
type OnlyNever<T extends never> = T
type Unlisted = OnlyNever<
  | Exclude<keyof AuthPort, (typeof portMethods.auth)[number]>
  | Exclude<keyof FilesPort, (typeof portMethods.files)[number]>
  | Exclude<keyof KnowledgeBasesPort, (typeof portMethods.knowledgeBases)[number]>
  | Exclude<keyof JobQueue, (typeof portMethods.jobs)[number]>
  | Exclude<keyof DatasetPort, (typeof portMethods.dataset)[number]>
>

/**
 * The methods that only read: run again once when the connection was lost under them (a restarted database),
 * since running a read twice changes nothing.
 */
export const readOnlyMethods: ReadonlySet<string> = new Set([
  'listBots',
  'getBot',
  'authenticate',
  'listTokens',
  'getById',
  'getAnyById',
  'getByKey',
  'blobInUse',
  'usage',
  'list',
  'listTagKeys',
  'listTagValues',
  'get',
  'nextDueAt',
])
