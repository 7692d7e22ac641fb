export { FilesStoreError, type FilesErrorCode } from './errors.js'
export type { FilesPort, FilesUsage, KnowledgeBasesPort } from './files-port.js'
export { mergePatch } from './merge-patch.js'
export { copiedFileRecord, newFileRecord } from './new-file-record.js'
export type {
  CompleteUploadResult,
  ExistingFileCheck,
  FileListQuery,
  FileMetadataPatch,
  FileOwnerRef,
  FilePosition,
  FileRecord,
  FileSortField,
  FilesAccessScope,
  KnowledgeBaseRecord,
  UpsertFileInput,
} from './types.js'
export { fileRowToRecord, indexingConfigurationJson, pageOfValues, type FileRow } from './file-row.js'
export { knowledgeBaseRowToRecord, type KnowledgeBaseRow } from './knowledge-base-row.js'
export { afterUploadStatusSql, fileStatusTransitions, statusAfterUpload, statusLiteral } from './file-status.js'
