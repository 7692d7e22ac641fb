import { PermanentJobError } from '../jobs/index.js'
import { TablesStoreError } from '../store/tables/index.js'
import type { ServiceJobContext } from '../http/env.js'
import { finishTableJob } from './finish-table-job.js'
import { TransferError } from '../transfer/transfer-error.js'

/**
 * Records why a table job failed when no retry will help (bad input, or the last attempt), then tells the
 * queue; a passing failure (a crash, a busy database) is left to the queue's retry with backoff.
 *
 * @example
 * ```ts
 * try { await work() } catch (error) { await failTableJob(context, tableJob.id, error) }
 * ```
 */
export async function failTableJob(context: ServiceJobContext, tableJobId: string, error: unknown): Promise<never> {
  if (failsForGood(context, error)) {
    const reason = error instanceof Error ? error.message : String(error)
    await finishTableJob(context.services, tableJobId, { status: 'failed', error: reason }).catch(() => undefined)
    throw error instanceof PermanentJobError ? error : new PermanentJobError(reason)
  }
  throw error
}

/**
 * Whether `failTableJob` will record this failure as final: a permanent error (bad input, a refused write) or the
 * job's last attempt. Work kept for a retry (an import's staging table) can be dropped first when it is.
 *
 * @example
 * ```ts
 * if (failsForGood(context, error)) await tables.dropImportStaging(tableJob.id)
 * ```
 */
export function failsForGood(context: ServiceJobContext, error: unknown): boolean {
  const permanent = error instanceof PermanentJobError || error instanceof TransferError || error instanceof TablesStoreError
  return permanent || context.job.attempts >= context.job.maxAttempts
}
