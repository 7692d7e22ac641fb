import type { File as StoredFile } from 'botshelf/client'

/**
 * What the console says about a file's search index: whether indexing was requested (`index`) and, if so, where it
 * stands (the `indexing_*` statuses), in words a newcomer reads without the API docs.
 *
 * @example
 * ```ts
 * indexText({ index: true, status: 'indexing_completed' }) // 'indexed: searchable'
 * indexText({ index: false, status: 'upload_completed' }) // 'not requested: not searchable'
 * ```
 */
export function indexText(file: Pick<StoredFile, 'index' | 'status'>): string {
  if (!file.index) return 'not requested: not searchable'
  switch (file.status) {
    case 'indexing_completed':
      return 'indexed: searchable'
    case 'indexing_pending':
      return 'requested: waiting to be indexed'
    case 'indexing_failed':
      return 'requested: indexing failed'
    case 'upload_failed':
      return 'requested: the upload failed, nothing to index'
    default:
      return 'requested: indexed once the upload completes'
  }
}
