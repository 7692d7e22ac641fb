export { defineJob, type JobContext, type JobHandler } from './job-handler.js'
export { JobRunner } from './job-runner.js'
export type { JobLogLevel, JobRunnerLogger, JobRunnerOptions } from './job-runner-options.js'
export { PermanentJobError } from './permanent-job-error.js'
