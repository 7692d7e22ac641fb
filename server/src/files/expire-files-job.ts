import { z } from 'zod'
import type { AppServices, ServiceJob } from '../http/env.js'
import { defineJob, enqueueJob, type JobSpec } from '../jobs/index.js'

/** Kind of the recurring job that deletes expired files. */
export const EXPIRE_FILES_JOB = 'files.expire'

/** The expiry pass's kind and payload (none) for the code that queues it; the handler is `expireFilesJob`. */
const expireFilesSpec: JobSpec<Record<string, never>> = { kind: EXPIRE_FILES_JOB, payload: z.object({}).strict() as z.ZodType<Record<string, never>> }

/**
 * Queues an expiry pass at `runAt`. The dedupe key names the interval slot, so servers sharing a dataset queue
 * one pass per slot between them, and a pass in progress can queue the next slot's.
 *
 * @example
 * ```ts
 * await scheduleExpiry(services, new Date(Date.now() + 60_000), 60_000)
 * ```
 */
export async function scheduleExpiry(services: AppServices, runAt: Date, intervalMs: number): Promise<void> {
  const slot = Math.floor(runAt.getTime() / intervalMs)
  await enqueueJob(services.backend.jobs, expireFilesSpec, { payload: {}, dedupeKey: `${EXPIRE_FILES_JOB}:${slot}`, runAt })
}

/**
 * The expiry sweeper as a job: deletes every file whose `expiresAt` has passed (by the backend's clock) and its
 * content, then queues the next pass `intervalMs` later. Reads already hide expired files; this reclaims the space.
 *
 * @example
 * ```ts
 * const feature: ServiceFeature = { name: 'files', jobs: [expireFilesJob(60_000)] }
 * ```
 */
export function expireFilesJob(intervalMs: number): ServiceJob {
  return defineJob({
    ...expireFilesSpec,
    async run({ services }) {
      const deleted = await services.files.deleteExpired()
      if (deleted > 0) services.logger.log('info', 'deleted expired files', { count: deleted })
      await scheduleExpiry(services, new Date(services.now().getTime() + intervalMs), intervalMs)
    },
  })
}
