export { Client } from './client.js'
export {
  DEFAULT_API_URL,
  DEFAULT_TIMEOUT_MS,
  resolveClientConfig,
  type ClientOptions,
  type RetryOptions,
  type FetchLike,
  type ResolvedClientConfig,
} from './options.js'
export type { CallOptions } from './http/call-options.js'
export type { ClientInput, ClientOutput } from './operation-types.js'
export type { CopyFileInput } from './files/files-client.js'
export type { FindTableRowsOutput } from './tables/tables-client.js'
export type { UploadFileInput, UploadFileOutput } from './files/upload-file.js'
export type { UploadContent } from './files/upload-body.js'
export type { DownloadedFile } from './files/download-file.js'
export { emptySearchMessage, type EmptySearchMessage, type EmptySearchMessageOptions } from './files/empty-search-message.js'
export type { ListCollections, ListInput } from './list-collections.js'
export { AsyncCollection, type PageLister, type Page } from './pagination/async-collection.js'
export { encodeQuery } from './http/query-string.js'
export * from './errors/index.js'
export type { ErrorType } from '../api/error-types.js'
export type { File, UploadableFile, FileStatus, AccessPolicy, FileOwner, TagFilter, Passage, SearchPassage, KnowledgeBase, KnowledgeBaseListItem } from '../api/files/index.js'
export type { Table, Row, TableJob, RowFilter, Group, Column } from '../api/tables/index.js'
