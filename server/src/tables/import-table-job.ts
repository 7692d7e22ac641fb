import { setImmediate as nextTurn } from 'node:timers/promises'
import { performance } from 'node:perf_hooks'
import { enqueueRowEmbedding } from '../search/rows/index.js'
import { finishTableJob } from './finish-table-job.js'
import { defineJob, PermanentJobError } from '../jobs/index.js'
import type { TableJobRecord } from '../store/index.js'
import { z } from 'zod'
import type { AppServices, ServiceJobContext } from '../http/env.js'
import { throttledProgress } from './job-progress.js'
import { failTableJob, failsForGood } from './table-job-failure.js'
import { columnsOf } from './table-columns.js'
import { rowBytes } from './row-bytes.js'
import { transferCodecs } from './transfer-codecs.js'
import { computedColumnsOf, queueCarriedCells } from './computed/index.js'
import { nextStepSize } from '../platform/index.js'

/** Rows checked and staged per step: one step holds the event loop for a few milliseconds. */
const STAGE_ROWS = 1000

/**
 * Publishing steps aim at holding the event loop this long each (an `INSERT … SELECT` from the staging table and its
 * commit), so that no turn of the loop is long on a loaded machine either; the durability wait does not hold it.
 */
const PUBLISH_STEP_MS = 8
const PUBLISH_ROWS = { first: 1000, min: 200, max: 8000 }

/** Kind of the queued job that runs an `importTable`. */
export const IMPORT_TABLE_JOB = 'tables.import'

const importTablePayload = z.object({ tableJobId: z.string(), botId: z.string(), tableId: z.string(), fileId: z.string() })

/** Payload of a queued import: the table job it drives and the Files API file it reads. */
export type ImportTablePayload = z.infer<typeof importTablePayload>

/**
 * Runs an import in one pass over the streamed file (CSV or JSON, gzipped or not), in bounded memory (decision 1473):
 * each step checks its rows as an insert would and stages them in the import's staging table, which no read sees
 * (progress 0 to 0.5), counting them against the quotas; a bad row fails the job with nothing of the file in the
 * table. Then the staged rows are published in file order by `INSERT … SELECT` steps, each committed with the job's
 * resume point (progress 0.5 to 1). A retry after a crash resumes staging after the rows staged, or publishing after
 * the rows committed, so no row is imported twice. Then the rows' embedding is queued (decision 0860).
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
      // Failing for good: nothing will resume from the staged rows; they go before the job says it failed.
      if (failsForGood(context, error)) await tables.dropImportStaging(tableJob.id).catch(() => undefined)
      await failTableJob(context, tableJob.id, error)
    }
  },
})

async function importRowsOf(context: ServiceJobContext, payload: ImportTablePayload, tableJob: TableJobRecord): Promise<void> {
  const { backend } = context.services
  await backend.tables.updateJob(tableJob.id, { status: 'in_progress' })
  const progress = throttledProgress((value) => backend.tables.updateJob(tableJob.id, { progress: value }))
  // Publishing starts only once every row is staged: a job that committed rows has nothing left to stage.
  if (tableJob.rowsCommitted === 0) await stageFile(context, payload, tableJob, progress)
  await publishStaged(context, payload, tableJob, progress)
  await backend.tables.dropImportStaging(tableJob.id)
  await progress.report(1, true)
}

type Progress = ReturnType<typeof throttledProgress>

/**
 * Reads the file once: every row checked and staged, after the rows a crashed attempt staged already; rows and
 * bytes counted against the quotas as they come, before any row is visible (decision 1463).
 */
async function stageFile(context: ServiceJobContext, payload: ImportTablePayload, tableJob: TableJobRecord, progress: Progress): Promise<void> {
  const { services, signal } = context
  const { backend } = services
  const record = await backend.tables.loadTable(payload.botId, payload.tableId)
  const file = await backend.files.getAnyById(payload.fileId)
  if (!file || !file.blobId || file.size === null) throw new PermanentJobError(`fileId: the file ${payload.fileId} was deleted or lost its content before the import ran`)
  const size = Math.max(1, file.size)
  const limits = services.importLimits
  const quota = await quotaOf(services, payload.botId, record.id, record.name)
  const userColumns = new Set(Object.keys(record.physicalMap))
  const staged = await backend.tables.stagedImportRows(tableJob.id)
  const ignored = new Set<string>()
  let consumed = 0
  let seen = 0
  let bytes = 0
  // The step before, while its commit is made durable; the next batch is read and parsed meanwhile.
  let pending: Promise<unknown> | undefined
  const { decodeImport } = await transferCodecs()
  const { stream } = await backend.blobs.read(file.blobId)
  const batches = decodeImport(stream as unknown as AsyncIterable<Uint8Array>, {
    columns: columnsOf(record),
    batchRows: STAGE_ROWS,
    maxRatio: limits.maxRatio,
    maxBytes: limits.maxBytes,
    onProgress: (read) => (consumed = read),
  })
  try {
    for await (const batch of batches) {
      if (signal.aborted) throw new Error('the import was stopped (lease lost or server stopping); it resumes elsewhere')
      const start = seen
      seen += batch.length
      for (const row of batch) bytes += rowBytes(row, userColumns)
      // Counted while staging: a file past a quota stops here, before any row is visible (decision 1463).
      quota.check(seen, bytes)
      if (seen <= staged) continue
      const rows = start < staged ? batch.slice(staged - start) : batch
      const first = Math.max(start, staged)
      if (pending) await pending
      pending = backend.tables.stageImportRows(payload.botId, record.id, tableJob.id, rows, first).then(({ warnings }) => warnings.forEach((w) => ignored.add(w)))
      // Its failure is met at the next await of it; until then it is not an unhandled rejection.
      pending.catch(() => undefined)
      await progress.report((0.5 * consumed) / size)
      // The step ran inside the call and the decoder resumes in microtasks: hand the loop back so requests go
      // between steps (otherwise the batches of one read slice ran in one turn, ~30 ms).
      await nextTurn()
    }
    await pending
  } catch (error) {
    await pending?.catch(() => undefined)
    // Nothing is visible before every row passed: say so in the file's terms.
    if (error instanceof Error) error.message = error.message.replace('no row was written', 'no row was imported')
    throw error
  }
  if (seen === 0) throw new PermanentJobError(`fileId: file ${JSON.stringify(file.key)} holds no rows`)
  // The wire job has no place for warnings (columns the table does not have): the log keeps them.
  if (ignored.size > 0) services.logger.log('info', 'import ignored what the table does not have', { tableJobId: tableJob.id, warnings: [...ignored] })
}

/**
 * Publishes the staged rows in steps sized to take about {@link PUBLISH_STEP_MS} each, after the rows an earlier
 * attempt committed. Each step is one `publishImportRows`: the rows and the job's resume point in one transaction.
 * This is where the import's rows become visible, so work queued with written rows belongs in that call.
 */
async function publishStaged(context: ServiceJobContext, payload: ImportTablePayload, tableJob: TableJobRecord, progress: Progress): Promise<void> {
  const { backend } = context.services
  const total = await backend.tables.stagedImportRows(tableJob.id)
  // Computed columns: each step's rows get their cells reset and queued in the step's transaction (decision 1425).
  const record = await backend.tables.loadTable(payload.botId, payload.tableId)
  const computing = computedColumnsOf(record.schema).length > 0
  let from = (await backend.tables.getJob(tableJob.id))?.rowsCommitted ?? tableJob.rowsCommitted
  let step = PUBLISH_ROWS.first
  while (from < total) {
    if (context.signal.aborted) throw new Error('the import was stopped (lease lost or server stopping); it resumes elsewhere')
    let published: number
    let held: number
    try {
      // On SQLite the step runs inside the call, before it returns its promise: that is the time the loop is held.
      // Its durability wait (off the thread) and PostgreSQL's round trips do not hold the loop and do not count.
      const started = performance.now()
      const count = Math.min(step, total - from)
      const step$ = computing
        ? backend.transaction(async (tx) => {
            const result = await tx.tables.publishImportRows(payload.botId, payload.tableId, tableJob.id, from, count)
            return { ...result, queued: await queueCarriedCells(tx, record, result.ids.map((id) => ({ id }))) }
          })
        : backend.tables.publishImportRows(payload.botId, payload.tableId, tableJob.id, from, count)
      held = performance.now() - started
      const outcome: { published: number; queued?: boolean } = await step$
      published = outcome.published
      if (outcome.queued) context.services.jobs.wake()
    } catch (error) {
      // Only a table changed since staging (or a failing disk) gets here: earlier steps are committed.
      if (error instanceof Error && from > 0) {
        error.message = error.message.replace(/no row (of this step|was) written/, `no row of this step was written; the ${from} rows before it were imported and stay`)
      }
      throw error
    }
    if (published === 0) break
    from += published
    step = nextStepSize(step, held, { targetMs: PUBLISH_STEP_MS, min: PUBLISH_ROWS.min, max: PUBLISH_ROWS.max })
    await progress.report(0.5 + (0.5 * from) / total)
    // Store calls resolve at once on SQLite: hand the event loop back between steps so requests go first.
    await nextTurn()
  }
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
