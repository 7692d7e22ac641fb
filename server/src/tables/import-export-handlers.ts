import type * as ops from 'botshelf/api'
import type { TablesPort } from '../store/index.js'
import { resolveFile } from '../files/file-resolver.js'
import { ownerFor } from '../files/permissions.js'
import type { OperationContext } from '../http/register-operation.js'
import { ServiceError } from '../http/service-error.js'
import { enqueueJob } from '../jobs/index.js'
import { exportTableJob, type ExportTablePayload } from './export-table-job.js'
import { importTableJob, type ImportTablePayload } from './import-table-job.js'

/**
 * `importTable`: checks the table and that the caller may read the file, then records the table job and queues
 * its run in one transaction, and answers at once with the job `pending` (decision 0408). The rows are read,
 * checked and inserted by the background job; `getTableJobs` shows its progress and its end.
 *
 * @example
 * ```ts
 * register(ops.importTable, importTableHandler)
 * ```
 */
export async function importTableHandler(context: OperationContext<typeof ops.importTable>, _tables: TablesPort) {
  const { principal, services, input } = context
  const job = await services.backend.transaction(async (tx) => {
    const record = await tx.tables.loadTable(principal.botId, input.params.table)
    const file = await resolveFile(tx.files, principal, input.body.fileId, 'read')
    if (!file.blobId) throw new ServiceError('InvalidPayload', `fileId: file ${JSON.stringify(file.key)} has no uploaded content yet`)
    const tableJob = await tx.tables.createJob(principal.botId, record.id, 'import', { inputFileId: file.id })
    const payload: ImportTablePayload = { tableJobId: tableJob.id, botId: principal.botId, tableId: record.id, fileId: file.id }
    await enqueueJob(tx.jobs, importTableJob, { payload, dedupeKey: tableJob.id })
    return tableJob
  })
  services.jobs.wake()
  return { job }
}

/**
 * `exportTable`: records the table job and queues its run in one transaction, and answers at once with the job
 * `pending`; the background job writes every row to a new Files API file owned by the caller and sets
 * `outputFileId` when it completes (decision 0408).
 *
 * @example
 * ```ts
 * register(ops.exportTable, exportTableHandler)
 * ```
 */
export async function exportTableHandler(context: OperationContext<typeof ops.exportTable>, _tables: TablesPort) {
  const { principal, services, input } = context
  const { owner, scope } = ownerFor(principal)
  const job = await services.backend.transaction(async (tx) => {
    const record = await tx.tables.loadTable(principal.botId, input.params.table)
    const tableJob = await tx.tables.createJob(principal.botId, record.id, 'export')
    const payload: ExportTablePayload = {
      tableJobId: tableJob.id,
      botId: principal.botId,
      tableId: record.id,
      format: input.query.format ?? 'json',
      compress: input.query.compress ?? true,
      ...(input.query.rawFormulas === true ? { rawFormulas: true } : {}),
      owner,
      ownerScope: scope,
    }
    await enqueueJob(tx.jobs, exportTableJob, { payload, dedupeKey: tableJob.id })
    return tableJob
  })
  services.jobs.wake()
  return { job }
}
