import type { Client, TableJob } from 'botshelf/client'

/**
 * Polls a table's jobs until `jobId` completes or fails, reporting each state; resolves with the last one.
 * Stops early (resolving with the last state seen) when `signal` aborts.
 *
 * @example
 * ```ts
 * const done = await watchTableJob(api.client, 'ordersTable', job.id, (j) => setProgress(j.progress))
 * ```
 */
export async function watchTableJob(client: Client, table: string, jobId: string, onUpdate: (job: TableJob) => void, signal?: AbortSignal, everyMs = 500): Promise<TableJob | undefined> {
  let last: TableJob | undefined
  while (!signal?.aborted) {
    const { jobs } = await client.getTableJobs({ table })
    last = jobs.find((job) => job.id === jobId) ?? last
    if (last) onUpdate(last)
    if (last && (last.status === 'completed' || last.status === 'failed')) return last
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
  return last
}
