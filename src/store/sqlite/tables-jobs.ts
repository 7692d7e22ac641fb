import type { TableJob } from '../../api/tables/index.js'
import { TablesStoreError } from '../tables/errors.js'
import { newTableJobId } from '../tables/ids.js'
import { loadTable } from './tables-catalog.js'
import type { TablesContext } from './tables-context.js'

/** A row of `tables_jobs`. */
interface JobRow {
  id: string
  bot_id: string
  table_id: string
  type: TableJob['type']
  status: TableJob['status']
  progress: number
  input_file_id: string | null
  output_file_id: string | null
  created_at: string
  updated_at: string
}

function jobToWire(row: JobRow): TableJob {
  return {
    id: row.id,
    botId: row.bot_id,
    tableId: row.table_id,
    type: row.type,
    status: row.status,
    progress: row.progress,
    inputFileId: row.input_file_id,
    outputFileId: row.output_file_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

function jobById(context: TablesContext, id: string): TableJob {
  const row = context.prepare('SELECT * FROM tables_jobs WHERE id = ?').get(id) as JobRow | undefined
  if (!row) throw new TablesStoreError('ResourceNotFound', 'TABLE_NOT_FOUND', `Job "${id}" not found`)
  return jobToWire(row)
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
  const rows = context.prepare('SELECT * FROM tables_jobs WHERE table_id = ? ORDER BY created_at DESC, id DESC LIMIT 50').all(record.id) as JobRow[]
  return rows.map(jobToWire)
}

/**
 * Records a new job in `pending`.
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
  return jobById(context, id)
}

/**
 * Moves a job along (`status`, `progress`, `outputFileId`, `error`).
 *
 * @example
 * ```ts
 * updateJob(context, job.id, { status: 'completed', progress: 1, outputFileId: file.id })
 * ```
 */
export function updateJob(context: TablesContext, id: string, change: { status?: TableJob['status']; progress?: number; outputFileId?: string; error?: string }): TableJob {
  const job = jobById(context, id)
  context
    .prepare('UPDATE tables_jobs SET status = ?, progress = ?, output_file_id = ?, error = ?, updated_at = ? WHERE id = ?')
    .run(change.status ?? job.status, change.progress ?? job.progress ?? 0, change.outputFileId ?? job.outputFileId, change.error ?? null, context.timestamp(), id)
  return jobById(context, id)
}
