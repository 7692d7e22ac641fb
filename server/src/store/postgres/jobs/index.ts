// The job queue on PostgreSQL and its migrations, as the adapter's root uses them.
export { PgJobQueue } from './job-queue.js'
export { postgresJobsMigrations } from './migrations.js'
