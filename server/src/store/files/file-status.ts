import type { FileStatus } from 'botshelf/api'

/**
 * The file-status state machine, once for every engine: the status each step of a file's life leads to. The
 * adapters' SQL and the records built in JS read it from here (the SQL through {@link afterUploadStatusSql}).
 *
 * @example
 * ```ts
 * fileStatusTransitions.uploadFailed // 'upload_failed'
 * ```
 */
export const fileStatusTransitions = {
  /** upsertFile: a new version of the definition waits for its content. */
  newVersion: 'upload_pending',
  /** completeUpload: the content landed; a file to index skips upload_completed (its indexing job is next). */
  contentLanded: { indexRequested: 'indexing_pending', otherwise: 'upload_completed' },
  /** failUpload: only while that version's content has not landed (a failed retry does not undo an upload). */
  uploadFailed: 'upload_failed',
  /** requestIndexing (setFilePassages): a new indexing generation starts. */
  indexingRequested: 'indexing_pending',
  /** finishIndexing applies only from this status, for the latest generation; its outcome is the new status. */
  awaitingIndexing: 'indexing_pending',
} as const satisfies {
  newVersion: FileStatus
  contentLanded: { indexRequested: FileStatus; otherwise: FileStatus }
  uploadFailed: FileStatus
  indexingRequested: FileStatus
  awaitingIndexing: FileStatus
}

/**
 * The status after a file's content lands, as the JS side computes it (a copy of completed content, say).
 *
 * @example
 * ```ts
 * statusAfterUpload(true) // 'indexing_pending'
 * ```
 */
export function statusAfterUpload(indexRequested: boolean): FileStatus {
  const { contentLanded } = fileStatusTransitions
  return indexRequested ? contentLanded.indexRequested : contentLanded.otherwise
}

/**
 * The same rule as SQL text for an engine's UPDATE: a `CASE` on the engine's "indexing was asked" condition.
 *
 * @example
 * ```ts
 * afterUploadStatusSql('index_requested = 1') // "CASE WHEN index_requested = 1 THEN 'indexing_pending' ELSE 'upload_completed' END"
 * ```
 */
export function afterUploadStatusSql(indexRequested: string): string {
  const { contentLanded } = fileStatusTransitions
  return `CASE WHEN ${indexRequested} THEN ${statusLiteral(contentLanded.indexRequested)} ELSE ${statusLiteral(contentLanded.otherwise)} END`
}

/**
 * A status as an SQL string literal (statuses are plain words; the quoting keeps that true).
 *
 * @example
 * ```ts
 * statusLiteral('upload_failed') // "'upload_failed'"
 * ```
 */
export function statusLiteral(status: FileStatus): string {
  return `'${status.replaceAll("'", "''")}'`
}
