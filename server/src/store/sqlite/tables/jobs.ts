import type { TableJob } from 'botshelf/api'
import { TablesStoreError } from '../../tables/errors.js'
import { newTableJobId } from '../../tables/ids.js'
import { tableJobRowToWire, type TableJobRow } from '../../tables/table-job-row.js'
import type { TableJobChange, TableJobRecord } from '../../tables/tables-port.js'
import { loadTable } from './catalog.js'
import type { TablesContext } from './context.js'



function jobRow(context: TablesContext, id: string): TableJobRow | undefined {
  return context.prepare('SELECT * FROM tables_jobs WHERE id = ?').get(id) as TableJobRow | undefined
}

function existingJobRow(context: TablesContext, id: string): TableJobRow {
  const row = jobRow(context, id)
  if (!row) throw new TablesStoreError('ResourceNotFound', 'TABLE_NOT_FOUND', `Job "${id}" not found`)
  return row
}

/**
 * The table's most recent jobs (at most 50), newest first.
 *
 * @example
 * ```ts
 * const jobs = listJobs(context, 'bot_1', 'ordersTable')
 * ```
 */
export function listJobs(context: TablesContext, botId: string, ref: string): TableJob[] {
  const record = loadTable(context, botId, ref)
  const rows = context.prepare('SELECT * FROM tables_jobs WHERE table_id = ? ORDER BY created_at DESC, id DESC LIMIT 50').all(record.id) as TableJobRow[]
  return rows.map(tableJobRowToWire)
}

/**
 * Records a new job in `pending`, with no rows committed.
 *
 * @example
 * ```ts
 * const job = createJob(context, 'bot_1', record.id, 'export', { inputFileId: null })
 * ```
 */
export function createJob(
  context: TablesContext,
  botId: string,
  tableId: string,
  type: TableJob['type'],
  files: { inputFileId?: string | null; outputFileId?: string | null } = {},
): TableJob {
  const now = context.timestamp()
  const id = newTableJobId(context.now())
  context
    .prepare(
      `INSERT INTO tables_jobs (id, bot_id, table_id, type, status, progress, input_file_id, output_file_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?)`,
    )
    .run(id, botId, tableId, type, files.inputFileId ?? null, files.outputFileId ?? null, now, now)
  return tableJobRowToWire(existingJobRow(context, id))
}

/**
 * A job by id with its failure reason and resume point, or `undefined`.
 *
 * @example
 * ```ts
 * const job = getJob(context, 'tjob_01K86HD0D5T3HFCGBEKQJFNKAD') // { ..., status: 'failed', error: '...', rowsCommitted: 2000 }
 * ```
 */
export function getJob(context: TablesContext, id: string): TableJobRecord | undefined {
  const row = jobRow(context, id)
  return row && { ...tableJobRowToWire(row), error: row.error, rowsCommitted: row.rows_committed }
}

/**
 * Moves a job along. Fields not given keep their value; `error` too, unless the job moves to a status other than
 * `failed` (a job that moves on is no longer failed). An unknown id is `ResourceNotFound`.
 *
 * @example
 * ```ts
 * updateJob(context, job.id, { status: 'in_progress', progress: 0.4, rowsCommitted: 2000 })
 * updateJob(context, job.id, { status: 'completed', progress: 1, outputFileId: file.id })
 * ```
 */
export function updateJob(context: TablesContext, id: string, change: TableJobChange): TableJob {
  const job = existingJobRow(context, id)
  context
    .prepare('UPDATE tables_jobs SET status = ?, progress = ?, output_file_id = ?, error = ?, rows_committed = ?, updated_at = ? WHERE id = ?')
    .run(
      change.status ?? job.status,
      change.progress ?? job.progress,
      change.outputFileId ?? job.output_file_id,
      change.error ?? (change.status !== undefined && change.status !== 'failed' ? null : job.error),
      change.rowsCommitted ?? job.rows_committed,
      context.timestamp(),
      id,
    )
  return tableJobRowToWire(existingJobRow(context, id))
}
