import { Worker } from 'node:worker_threads'

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
  if (import.meta.url.endsWith('.ts')) {
    const entry = new URL('./extraction-worker.ts', import.meta.url).href
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}) })`
    return new Worker(boot, { eval: true, resourceLimits })
  }
  return new Worker(new URL('./extraction-worker.js', import.meta.url), { resourceLimits })
}
