import type { Worker } from 'node:worker_threads'
import { moduleWorkers, spawnModuleWorker } from '../../../platform/index.js'

/**
 * Starts an extraction worker thread with a heap bound. From the built package it runs
 * `extraction-worker.js`; when botshelf runs from its TypeScript sources (tests, benchmarks), the thread first
 * registers the TypeScript loader the development tools use, then imports `extraction-worker.ts`.
 *
 * @example
 * ```ts
 * const worker = spawnExtractionWorker(256)
 * ```
 */
export function spawnExtractionWorker(memoryMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: memoryMb }
  return spawnModuleWorker(moduleWorkers.extraction, resourceLimits)
}
