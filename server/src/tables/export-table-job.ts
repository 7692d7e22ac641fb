import { setImmediate as nextTurn } from 'node:timers/promises'
import { tablesLimits } from 'botshelf/api'
import { finishTableJob } from './finish-table-job.js'
import type { FileOwner } from 'botshelf/api'
import { z } from 'zod'
import type { AppServices } from '../http/env.js'
import { defineJob } from '../jobs/index.js'
import { throttledProgress } from './job-progress.js'
import { failTableJob } from './table-job-failure.js'
import { columnsOf } from './table-columns.js'
import { transferCodecs } from './transfer-codecs.js'
import { computedColumnsOf, withComputedState } from './computed/index.js'

/** Kind of the queued job that runs an `exportTable`. */
export const EXPORT_TABLE_JOB = 'tables.export'

/** Payload of a queued export: the table job, the format, and who will own the output file. */
const exportTablePayload = z.object({
  tableJobId: z.string(),
  botId: z.string(),
  tableId: z.string(),
  format: z.enum(['csv', 'json']),
  compress: z.boolean(),
  /** CSV text a spreadsheet would run is kept as it is (decision 1462); absent in jobs queued before the option. */
  rawFormulas: z.boolean().optional(),
  owner: z.custom<FileOwner>((value) => typeof value === 'object' && value !== null),
  ownerScope: z.string(),
})

/** Payload of a queued export: the table job, the format, and who will own the output file. */
export type ExportTablePayload = z.infer<typeof exportTablePayload>

const PAGE = 500

/**
 * Runs an export: reads the rows page by page in id order, encodes them as they come (CSV or JSON, gzip by
 * default) straight into the blob store, then commits the output file (`tables/<name>/<jobId>.<format>[.gz]`,
 * owned by the caller) in one step through the files service. Memory stays bounded whatever the table's size;
 * progress is rows written over the row count at the start.
 *
 * @example
 * ```ts
 * const feature: ServiceFeature = { name: 'tables', jobs: [exportTableJob] }
 * ```
 */
export const exportTableJob = defineJob<ExportTablePayload, AppServices>({
  kind: EXPORT_TABLE_JOB,
  payload: exportTablePayload,
  async run(context) {
    const { services, signal, payload } = context
    const { tables } = services.backend
    const tableJob = await tables.getJob(payload.tableJobId)
    if (!tableJob || tableJob.status === 'completed' || tableJob.status === 'failed') return
    try {
      await tables.updateJob(tableJob.id, { status: 'in_progress' })
      const { table, rows: total } = await tables.getTable(payload.botId, payload.tableId)
      const record = await tables.loadTable(payload.botId, payload.tableId)
      const computes = computedColumnsOf(record.schema).length > 0
      const progress = throttledProgress((value) => tables.updateJob(tableJob.id, { progress: value }))
      const rows = async function* () {
        let after = 0
        let written = 0
        for (;;) {
          if (signal.aborted) throw new Error('the export was stopped (lease lost or server stopping); it starts again elsewhere')
          const page = await tables.findRows(payload.botId, record.id, { filter: { id: { $gt: after } }, orderBy: 'id', limit: PAGE })
          for (const row of computes ? await withComputedState(services.backend.computed, record.id, true, page.rows) : page.rows) yield row
          written += page.rows.length
          await progress.report(total > 0 ? (0.99 * written) / total : 0)
          if (!page.hasMore || page.rows.length === 0) return
          after = page.rows[page.rows.length - 1]!.id as number
          // Store calls resolve at once on SQLite: hand the event loop back between pages so requests go first.
          await nextTurn()
        }
      }
      const { format, compress } = payload
      const { encodeExport } = await transferCodecs()
      const key = `tables/${table.name}/${tableJob.id}.${format}${compress ? '.gz' : ''}`
      const file = await services.files.createWithContent(
        {
          botId: payload.botId,
          key,
          ownerScope: payload.ownerScope,
          owner: payload.owner,
          contentType: compress ? 'application/gzip' : format === 'csv' ? 'text/csv' : 'application/json',
          tags: { source: 'table-export', table: table.name.slice(0, tablesLimits.tagValueMax) },
          metadata: { tableId: table.id, jobId: tableJob.id, format, compressed: compress },
          accessPolicies: [],
          index: false,
          expiresAt: null,
        },
        encodeExport(rows(), { format, compress, columns: columnsOf(record), tableName: table.name, schema: record.schema, computedState: computes, rawFormulas: payload.rawFormulas === true }),
      )
      await finishTableJob(context.services, tableJob.id, { status: 'completed', progress: 1, outputFileId: file.id })
    } catch (error) {
      await failTableJob(context, tableJob.id, error)
    }
  },
})
