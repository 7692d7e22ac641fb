/** The extraction worker threads: the pool, how a thread starts, and the messages they exchange. */
export { ExtractionWorkerPool } from './worker-pool.js'
export { spawnExtractionWorker } from './spawn-worker.js'
export type { ExtractionRequest, ExtractionResponse } from './worker-messages.js'
