import { Worker, type ResourceLimits } from 'node:worker_threads'

/**
 * Starts a worker thread running the module `name` (without extension) that sits beside the module at `besideUrl`.
 * From the built package that is `name.js`; when botshelf runs from its TypeScript sources (tests, benches), the
 * thread first registers the TypeScript loader the development tools use, then imports `name.ts`. The one way the
 * project starts its threads (request-body parsing, document extraction).
 *
 * @example
 * ```ts
 * const worker = spawnModuleWorker(import.meta.url, 'extraction-worker', { maxOldGenerationSizeMb: 256 })
 * ```
 */
export function spawnModuleWorker(besideUrl: string, name: string, resourceLimits: ResourceLimits = {}): Worker {
  if (besideUrl.endsWith('.ts')) {
    const entry = new URL(`./${name}.ts`, besideUrl).href
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}) })`
    return new Worker(boot, { eval: true, resourceLimits })
  }
  return new Worker(new URL(`./${name}.js`, besideUrl), { resourceLimits })
}
