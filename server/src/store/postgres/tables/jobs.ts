import type { TableJob } from 'botshelf/api'
import { TablesStoreError } from '../../tables/errors.js'
import { newTableJobId } from '../../tables/ids.js'
import { tableJobRowToWire, type TableJobRow } from '../../tables/table-job-row.js'
import type { TableJobChange, TableJobRecord } from '../../tables/tables-port.js'
import { loadTable } from './catalog.js'
import { query, type PgTablesContext } from './context.js'



async function jobRow(context: PgTablesContext, id: string): Promise<TableJobRow | undefined> {
  const [row] = await query(context, 'SELECT * FROM tables_jobs WHERE id = $1::text', [id])
  return row as unknown as TableJobRow | undefined
}

function notFound(id: string): TablesStoreError {
  return new TablesStoreError('ResourceNotFound', 'TABLE_NOT_FOUND', `Job "${id}" not found`)
}

/**
 * The table's most recent jobs (at most 50), newest first.
 *
 * @example
 * ```ts
 * const jobs = await listJobs(context, 'bot_1', 'ordersTable')
 * ```
 */
export async function listJobs(context: PgTablesContext, botId: string, ref: string): Promise<TableJob[]> {
  const record = await loadTable(context, botId, ref)
  const rows = await query(context, 'SELECT * FROM tables_jobs WHERE table_id = $1::text ORDER BY created_at DESC, id DESC LIMIT 50', [record.id])
  return (rows as unknown as TableJobRow[]).map(tableJobRowToWire)
}

/**
 * Records a new job in `pending`, with no rows committed.
 *
 * @example
 * ```ts
 * const job = await createJob(context, 'bot_1', record.id, 'export', { inputFileId: null })
 * ```
 */
export async function createJob(
  context: PgTablesContext,
  botId: string,
  tableId: string,
  type: TableJob['type'],
  files: { inputFileId?: string | null; outputFileId?: string | null } = {},
): Promise<TableJob> {
  const now = context.timestamp()
  const id = newTableJobId(context.now())
  const [row] = await query(
    context,
    `INSERT INTO tables_jobs (id, bot_id, table_id, type, status, progress, input_file_id, output_file_id, created_at, updated_at)
     VALUES ($1::text, $2::text, $3::text, $4::text, 'pending', 0, $5::text, $6::text, $7::text, $7::text) RETURNING *`,
    [id, botId, tableId, type, files.inputFileId ?? null, files.outputFileId ?? null, now],
  )
  return tableJobRowToWire(row as unknown as TableJobRow)
}

/**
 * A job by id with its failure reason and resume point, or `undefined`.
 *
 * @example
 * ```ts
 * const job = await getJob(context, 'tjob_01K86HD0D5T3HFCGBEKQJFNKAD') // { ..., status: 'failed', error: '...', rowsCommitted: 2000 }
 * ```
 */
export async function getJob(context: PgTablesContext, id: string): Promise<TableJobRecord | undefined> {
  const row = await jobRow(context, id)
  return row && { ...tableJobRowToWire(row), error: row.error, rowsCommitted: row.rows_committed }
}

/**
 * Moves a job along in one statement. Fields not given keep their value; `error` too, unless the job moves to a
 * status other than `failed`. An unknown id is `ResourceNotFound`.
 *
 * @example
 * ```ts
 * await updateJob(context, job.id, { status: 'in_progress', progress: 0.4, rowsCommitted: 2000 })
 * ```
 */
export async function updateJob(context: PgTablesContext, id: string, change: TableJobChange): Promise<TableJob> {
  const clearsError = change.error === undefined && change.status !== undefined && change.status !== 'failed'
  const [row] = await query(
    context,
    `UPDATE tables_jobs SET status = coalesce($2::text, status), progress = coalesce($3::float8, progress), output_file_id = coalesce($4::text, output_file_id),
     error = CASE WHEN $5::boolean THEN NULL ELSE coalesce($6::text, error) END, rows_committed = coalesce($7::int, rows_committed), updated_at = $8::text
     WHERE id = $1::text RETURNING *`,
    [id, change.status ?? null, change.progress ?? null, change.outputFileId ?? null, clearsError, change.error ?? null, change.rowsCommitted ?? null, context.timestamp()],
  )
  if (!row) throw notFound(id)
  return tableJobRowToWire(row as unknown as TableJobRow)
}
