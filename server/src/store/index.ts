export type { Backend, BackendPorts } from './backend.js'
export { wantsType, type DeliveryRecord, type DeliveryStatus, type WebhookRecord, type WebhooksPort } from './webhooks/index.js'
export { systemClock, type Clock } from './clock.js'
export type { PagePosition } from './page.js'
export { AuthStoreError } from './auth/index.js'
export type { AuthPort, BotRecord, BotTokenInput, CreateTokenInput, CreatedToken, TokenCheck, TokenRecord, TokenScope, WorkspaceTokenInput } from './auth/index.js'
export {
  FilesStoreError,
  type FilesErrorCode,
  mergePatch,
  type CompleteUploadResult,
  type ExistingFileCheck,
  type FileListQuery,
  type FileMetadataPatch,
  type FileOwnerRef,
  type FilePosition,
  type FileRecord,
  type FileSortField,
  type FilesAccessScope,
  type FilesPort,
  type KnowledgeBaseRecord,
  type KnowledgeBasesPort,
  type UpsertFileInput,
} from './files/index.js'
export type { CreateTableInput, FindQuery, FindResult, RowsWriteResult, TableJobChange, TableJobRecord, TableRecord, TablesPort, TableWithCounts, UpdateTableInput, QueryVector, RowVectorCounts, StaleRowsClaim } from './tables/index.js'
export { TablesStoreError, type TablesErrorCode } from './tables/index.js'
export type { PassageInput, PassageListQuery, PassageRecord, PassageSubtype, PassageVectorsInput, StoredPassageType, ReplacePassagesInput, SearchHit, SearchIndexPort, SearchQuery, SearchUsage, StaleFile } from './search/index.js'
export { jobStates, type ClaimInput, type EnqueueInput, type FailInput, type JobListQuery, type JobQueue, type JobRecord, type JobState } from './jobs/index.js'
export type { ComputedCellsPort, ComputedCell, ComputedStatus, CellReset, CellCopy, ClaimedCell, CellOutcome } from './computed/index.js'
