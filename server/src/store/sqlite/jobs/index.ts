// The job queue on SQLite and its migrations, as the adapter's root uses them.
export { SqliteJobQueue, jobQueueMethods } from './job-queue.js'
export { jobsMigrations } from './migrations.js'
