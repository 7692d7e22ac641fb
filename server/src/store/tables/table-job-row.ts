import type { TableJob } from 'botshelf/api'

/** A row of `tables_jobs` (import and export jobs of user tables): the same columns on SQLite and PostgreSQL. */
export interface TableJobRow {
  id: string
  bot_id: string
  table_id: string
  type: TableJob['type']
  status: TableJob['status']
  progress: number
  input_file_id: string | null
  output_file_id: string | null
  error: string | null
  rows_committed: number
  created_at: string
  updated_at: string
}

/**
 * The wire form of a table job row.
 *
 * @example
 * const job = tableJobRowToWire(db.prepare('SELECT * FROM tables_jobs WHERE id = ?').get(id) as TableJobRow)
 * job.status // 'pending' | 'in_progress' | 'finalizing' | 'completed' | 'failed'
 */
export function tableJobRowToWire(row: TableJobRow): TableJob {
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
    // Why a failed job failed: a botshelf addition to the wire job (docs/decisions/0602-durable-job-queue.md).
    ...(row.error !== null ? { error: row.error } : {}),
  }
}
