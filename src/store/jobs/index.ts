export type { JobQueue } from './job-queue.js'
export { jobStates, type ClaimInput, type EnqueueInput, type FailInput, type JobListQuery, type JobRecord, type JobState } from './types.js'
