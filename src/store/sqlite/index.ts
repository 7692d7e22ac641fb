export { openDatabase, type Sqlite } from './open-database.js'
export { runMigrations, type Migration } from './migrations.js'
export { authMigrations } from './auth-migrations.js'
export {
  AuthStore,
  AuthStoreError,
  type BotRecord,
  type BotTokenInput,
  type CreateTokenInput,
  type CreatedToken,
  type TokenCheck,
  type TokenRecord,
  type TokenScope,
  type WorkspaceTokenInput,
} from './auth-store.js'
export { filesMigrations } from './files-migrations.js'
export {
  FilesRepository,
  type FileRecord,
  type FilesAccessScope,
  type FileListQuery,
  type FileSortField,
  type FilePosition,
  type UpsertFileInput,
  type FileMetadataPatch,
  type CompleteUploadResult,
} from './files-repository.js'
export { KnowledgeBasesRepository, type KnowledgeBaseRecord } from './files-knowledge-bases.js'
export { tablesMigrations } from './tables-migrations.js'
export {
  SqliteTablesStore,
  tableToWire,
  type TableRecord,
  type CreateTableInput,
  type UpdateTableInput,
  type TableWithCounts,
  type RowsWriteResult,
  type TablesStoreOptions,
} from './tables-store.js'
export { TablesStoreError, type TablesErrorCode } from '../tables/errors.js'
export type { FindQuery, FindResult } from '../tables/types.js'
export { jobsMigrations } from './jobs-migrations.js'
export { SqliteJobQueue, jobQueueMethods } from './sqlite-job-queue.js'
