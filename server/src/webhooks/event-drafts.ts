import { ROWS_PER_EVENT, type Table, type TableJob } from 'botshelf/api'
import type { AppServices } from '../http/env.js'
import { defaultUrlLifetimes } from '../files/content-urls.js'
import { toWireFile } from '../files/file-view.js'
import type { FileRecord } from '../store/index.js'
import { storageEventDraft, type StorageEventDraft } from './storage-event.js'

type FileEventType = 'file.created' | 'file.updated' | 'file.deleted' | 'file.indexed' | 'file.indexing_failed'

const fileVerbs: Record<FileEventType, string> = {
  'file.created': 'created',
  'file.updated': 'updated',
  'file.deleted': 'deleted',
  'file.indexed': 'indexed',
  'file.indexing_failed': 'failed to index',
}

/**
 * A `file.*` event: the file as `getFile` answers it (for `file.deleted`, as it was).
 *
 * @example
 * ```ts
 * fileEvent(services, 'file.indexed', record)
 * ```
 */
export function fileEvent(services: AppServices, type: FileEventType, record: FileRecord, requestBase?: string): StorageEventDraft {
  const file = toWireFile(record, {
    signingKey: services.signingKey,
    base: services.webhooks.baseUrl(requestBase),
    now: services.now(),
    lifetimes: defaultUrlLifetimes,
    blobs: services.backend.blobs,
  })
  const reason = type === 'file.indexing_failed' && record.failedStatusReason ? `: ${record.failedStatusReason}` : ''
  return storageEventDraft(type, record.botId, { file }, `file ${record.key} ${fileVerbs[type]}${reason}`)
}

/**
 * A `table.created` / `table.updated` / `table.deleted` event.
 *
 * @example
 * ```ts
 * tableEvent('table.created', botId, table)
 * ```
 */
export function tableEvent(type: 'table.created' | 'table.updated' | 'table.deleted', botId: string, table: Table): StorageEventDraft {
  return storageEventDraft(type, botId, { table }, `table ${table.name} ${type.slice('table.'.length)}`)
}

/**
 * `table.rows.*` events: at most 100 rows each, so a large write makes several.
 *
 * @example
 * ```ts
 * rowsEvents('table.rows.created', botId, 'ordersTable', rows)
 * ```
 */
export function rowsEvents(
  type: 'table.rows.created' | 'table.rows.updated' | 'table.rows.deleted',
  botId: string,
  table: string,
  rows: ReadonlyArray<Record<string, unknown> & { id: number }>,
): StorageEventDraft[] {
  const drafts: StorageEventDraft[] = []
  const verb = type.slice('table.rows.'.length)
  for (let start = 0; start < rows.length; start += ROWS_PER_EVENT) {
    const chunk = rows.slice(start, start + ROWS_PER_EVENT)
    const payload = type === 'table.rows.deleted' ? { table, rows: chunk.map((row) => ({ id: row.id })) } : { table, rows: chunk as Array<Record<string, unknown> & { id: number; createdAt: string; updatedAt: string }> }
    drafts.push(storageEventDraft(type, botId, payload as never, `${chunk.length} row${chunk.length === 1 ? '' : 's'} of ${table} ${verb}`))
  }
  return drafts
}

/**
 * A `table.import.*` / `table.export.*` event for a table job that ended.
 *
 * @example
 * ```ts
 * tableJobEvent(job, 'My table')
 * ```
 */
export function tableJobEvent(job: TableJob, tableName: string): StorageEventDraft | undefined {
  if (job.status !== 'completed' && job.status !== 'failed') return undefined
  if (job.type !== 'import' && job.type !== 'export') return undefined
  const type = `table.${job.type}.${job.status}` as 'table.import.completed'
  return storageEventDraft(type, job.botId, { job }, `${job.type} of table ${tableName} ${job.status}`)
}
