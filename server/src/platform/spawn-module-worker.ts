import { Worker, type ResourceLimits } from 'node:worker_threads'

/**
 * The modules the service runs as worker threads, by path from the service's source root (`server/src/`, built to
 * `server/dist/`), without extension. Named here, once, because they are located from this module: a thread's
 * entry must be a file of its own, and the bundled CLI (decision 1486) has no file beside its callers.
 */
export const moduleWorkers = {
  /** Request bodies of 256 KiB and more, parsed off the event loop (`http/json-parse-pool.ts`). */
  jsonParse: 'http/json-parse-worker',
  /** Document extraction (`search/extraction/worker/spawn-worker.ts`). */
  extraction: 'search/extraction/worker/extraction-worker',
  /** Code columns' QuickJS sandbox (`tables/computed/sandbox/code-sandbox.ts`). */
  codeSandbox: 'tables/computed/sandbox/sandbox-worker',
  /** The vector lists' k-means and assignment (`store/sqlite/search/lists-training.ts`). */
  listsTraining: 'store/sqlite/search/lists-worker',
} as const

/** One of {@link moduleWorkers}. */
export type ModuleWorker = (typeof moduleWorkers)[keyof typeof moduleWorkers]

/**
 * Where a worker module is, seen from `fromUrl`, the URL of a module one folder below the source or build root
 * (this one, `platform/spawn-module-worker.js`, or a chunk of the bundled CLI in `dist/bundle/`): `<root>/<path>.js`
 * when built, `<root>/<path>.ts` when botshelf runs from its TypeScript sources (tests, benches).
 *
 * @example
 * ```ts
 * moduleWorkerUrl(moduleWorkers.extraction, 'file:///app/server/dist/bundle/chunk-X.js').href
 * // 'file:///app/server/dist/search/extraction/worker/extraction-worker.js'
 * ```
 */
export function moduleWorkerUrl(path: ModuleWorker, fromUrl: string = import.meta.url): URL {
  return new URL(`../${path}${fromUrl.endsWith('.ts') ? '.ts' : '.js'}`, fromUrl)
}

/**
 * Starts a worker thread running one of {@link moduleWorkers}. From the built package (or the bundled CLI) that is
 * the built `.js` module; from the TypeScript sources, the thread first registers the TypeScript loader the
 * development tools use, then imports the `.ts` module. The one way the project starts its module threads.
 *
 * @example
 * ```ts
 * const worker = spawnModuleWorker(moduleWorkers.extraction, { maxOldGenerationSizeMb: 256 })
 * ```
 */
export function spawnModuleWorker(path: ModuleWorker, resourceLimits: ResourceLimits = {}): Worker {
  const entry = moduleWorkerUrl(path)
  if (entry.pathname.endsWith('.ts')) {
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}) })`
    return new Worker(boot, { eval: true, resourceLimits })
  }
  return new Worker(entry, { resourceLimits })
}
