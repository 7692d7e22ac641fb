// Row embedding of table search (decision 0860): the `tables.embed` job, the recurring sweep that queues it for
// tables with stale rows, and the options shared with the routes (the embedder).
export { embedTableRowsJob } from './embed-table-rows-job.js'
export { EMBED_TABLE_ROWS_JOB, enqueueRowEmbedding, type EmbedTableRowsPayload } from './enqueue-row-embedding.js'
export { scheduleStaleRowSweep, sweepStaleRowsJob, SWEEP_STALE_ROWS_JOB } from './sweep-stale-rows-job.js'
export type { TableSearchOptions } from './table-search-options.js'
