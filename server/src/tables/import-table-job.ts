import { enqueueRowEmbedding } from '../search/rows/index.js'
import { finishTableJob } from './finish-table-job.js'
import { defineJob, PermanentJobError } from '../jobs/index.js'
import type { TableJobRecord } from '../store/index.js'
import { z } from 'zod'
import type { AppServices, ServiceJobContext } from '../http/env.js'
import { throttledProgress } from './job-progress.js'
import { failTableJob } from './table-job-failure.js'
import { columnsOf } from './table-columns.js'
import { rowBytes } from './row-bytes.js'
import { decodeImport } from '../transfer/index.js'
import { queueCarriedCells } from './computed/index.js'

/**
 * Rows checked, then committed, per step: small enough that one step (a check, or an insert with its commit)
 * holds the event loop for a few milliseconds, large enough that commits do not dominate.
 */
const BATCH_ROWS = 500

/** Kind of the queued job that runs an `importTable`. */
export const IMPORT_TABLE_JOB = 'tables.import'

const importTablePayload = z.object({ tableJobId: z.string(), botId: z.string(), tableId: z.string(), fileId: z.string() })

/** Payload of a queued import: the table job it drives and the Files API file it reads. */
export type ImportTablePayload = z.infer<typeof importTablePayload>

/**
 * Runs an import in two passes over the streamed file (CSV or JSON, gzipped or not), in bounded memory:
 * first every row is checked (progress 0 to 0.5), so a bad row refuses the import before anything is written;
 * then rows are inserted in batches, each batch committed with the job's resume point (progress 0.5 to 1). A
 * retry after a crash skips the rows already committed, so no row is imported twice. Then the rows' embedding is
 * queued (decision 0860).
 *
 * @example
 * ```ts
 * const feature: ServiceFeature = { name: 'tables', jobs: [importTableJob] }
 * ```
 */
export const importTableJob = defineJob<ImportTablePayload, AppServices>({
  kind: IMPORT_TABLE_JOB,
  payload: importTablePayload,
  async run(context) {
    const { payload } = context
    const { tables } = context.services.backend
    const tableJob = await tables.getJob(payload.tableJobId)
    if (!tableJob || tableJob.status === 'completed' || tableJob.status === 'failed') return
    try {
      await importRowsOf(context, payload, tableJob)
      await finishTableJob(context.services, tableJob.id, { status: 'completed', progress: 1 })
      // The imported rows are stale: embed them now rather than at the next sweep (a no-op without an embedder).
      await enqueueRowEmbedding(context.services, { botId: payload.botId, tableId: payload.tableId })
    } catch (error) {
      await failTableJob(context, tableJob.id, error)
    }
  },
})

async function importRowsOf(context: ServiceJobContext, payload: ImportTablePayload, tableJob: TableJobRecord): Promise<void> {
  const { services, signal } = context
  const { backend } = services
  await backend.tables.updateJob(tableJob.id, { status: 'in_progress' })
  const record = await backend.tables.loadTable(payload.botId, payload.tableId)
  const file = await backend.files.getAnyById(payload.fileId)
  if (!file || !file.blobId || file.size === null) throw new PermanentJobError(`fileId: the file ${payload.fileId} was deleted or lost its content before the import ran`)
  const blobId = file.blobId
  const size = Math.max(1, file.size)
  const columns = columnsOf(record)
  const limits = services.importLimits
  const progress = throttledProgress((value) => backend.tables.updateJob(tableJob.id, { progress: value }))
  const rowsOf = async function* (share: number, offset: number) {
    const { stream } = await backend.blobs.read(blobId)
    let consumed = 0
    const batches = decodeImport(stream as unknown as AsyncIterable<Uint8Array>, {
      columns,
      batchRows: BATCH_ROWS,
      maxRatio: limits.maxRatio,
      maxBytes: limits.maxBytes,
      onProgress: (bytes) => (consumed = bytes),
    })
    for await (const batch of batches) {
      if (signal.aborted) throw new Error('the import was stopped (lease lost or server stopping); it resumes elsewhere')
      yield batch
      await progress.report(offset + (share * consumed) / size)
      // Store calls resolve at once on SQLite: hand the event loop back between batches so requests go first.
      await new Promise<void>((resolve) => setImmediate(resolve))
    }
  }

  let resumeAt = tableJob.rowsCommitted
  if (resumeAt === 0) {
    let checked = 0
    const ignored = new Set<string>()
    const quota = await quotaOf(services, payload.botId, record.id, record.name)
    const userColumns = new Set(Object.keys(record.physicalMap))
    let bytes = 0
    try {
      for await (const batch of rowsOf(0.5, 0)) {
        for (const warning of (await backend.tables.checkRows(payload.botId, record.id, batch, checked)).warnings) ignored.add(warning)
        checked += batch.length
        for (const row of batch) bytes += rowBytes(row, userColumns)
        // Counted while checking: a file past a quota stops here, before any row is written (decision 1463).
        quota.check(checked, bytes)
      }
    } catch (error) {
      // Nothing is written before every row passed: say so in the file's terms.
      if (error instanceof Error) error.message = error.message.replace('no row was written', 'no row was imported')
      throw error
    }
    if (checked === 0) throw new PermanentJobError(`fileId: file ${JSON.stringify(file.key)} holds no rows`)
    // The wire job has no place for warnings (columns the table does not have): the log keeps them.
    if (ignored.size > 0) services.logger.log('info', 'import ignored what the table does not have', { tableJobId: tableJob.id, warnings: [...ignored] })
  }

  let seen = 0
  for await (const batch of rowsOf(0.5, 0.5)) {
    const start = seen
    seen += batch.length
    if (seen <= resumeAt) continue
    const rows = start < resumeAt ? batch.slice(resumeAt - start) : batch
    const first = Math.max(start, resumeAt)
    try {
      const computes = await backend.transaction(async (tx) => {
        const { ids } = await tx.tables.importRows(payload.botId, record.id, rows, first)
        await tx.tables.updateJob(tableJob.id, { rowsCommitted: first + rows.length })
        // Computed columns: the rows' cells are queued with them, or kept as a JSON export carried them (decision 1425).
        return queueCarriedCells(tx, record, rows.map((row, index) => ({ id: ids[index]!, computed: row['computed'] })))
      })
      if (computes) services.jobs.wake()
    } catch (error) {
      // Only a table changed since the check (or a failing disk) gets here: earlier batches are committed.
      if (error instanceof Error && resumeAt > 0) {
        error.message = error.message.replace('no row was written', `no row of this batch was written; the ${resumeAt} rows before it were imported and stay`)
      }
      throw error
    }
    resumeAt = first + rows.length
  }
  await progress.report(1, true)
}

/**
 * The row and byte quotas of an import: what the table and the bot hold already (rows, and stored bytes as the port's
 * `storedBytes` measures them), and a check of the rows and bytes counted so far.
 */
async function quotaOf(services: AppServices, botId: string, tableId: string, tableName: string): Promise<{ check(rows: number, bytes: number): void }> {
  const { tables } = services.backend
  const { tableRows, botRows, tableBytes, botBytes } = services.importLimits
  const inTable = (await tables.getTable(botId, tableId)).rows
  const bytesInTable = await tables.storedBytes(botId, tableId)
  let inBot = 0
  let bytesInBot = 0
  let after
  do {
    const page = await tables.listTables(botId, { pageSize: 100, ...(after ? { after } : {}) })
    for (const table of page.tables) {
      inBot += (await tables.getTable(botId, table.id)).rows
      bytesInBot += await tables.storedBytes(botId, table.id)
    }
    after = page.next
  } while (after)
  const refuse = (message: string, flag: string) => {
    throw new PermanentJobError(`fileId: the import would take ${message}; no row was imported (botshelf serve --${flag})`)
  }
  return {
    check(rows, bytes) {
      const table = `table ${JSON.stringify(tableName)}`
      if (inTable + rows > tableRows) refuse(`${table} past its quota of ${tableRows} rows (it holds ${inTable} and the file has at least ${rows})`, 'import-table-rows')
      if (inBot + rows > botRows) refuse(`the bot's tables past their quota of ${botRows} rows (they hold ${inBot} and the file has at least ${rows})`, 'import-bot-rows')
      if (bytesInTable + bytes > tableBytes) {
        refuse(`${table} past its quota of ${tableBytes} stored bytes (it stores ${bytesInTable}, the file brings at least ${bytes}: ${bytesInTable + bytes} in all)`, 'import-table-bytes')
      }
      if (bytesInBot + bytes > botBytes) {
        refuse(`the bot's tables past their quota of ${botBytes} stored bytes (they store ${bytesInBot}, the file brings at least ${bytes}: ${bytesInBot + bytes} in all)`, 'import-bot-bytes')
      }
    },
  }
}
