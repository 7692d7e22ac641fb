export type { JobQueue } from './job-queue.js'
export { JOB_RETRY_BASE_MS, JOB_RETRY_CAP_MS, jobRetryDelayMs } from './retry-delay.js'
export { jobStates, type ClaimInput, type EnqueueInput, type FailInput, type JobListQuery, type JobRecord, type JobState } from './types.js'
