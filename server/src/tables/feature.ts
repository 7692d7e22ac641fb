import type { ServiceFeature } from '../http/env.js'
import { loadDefaultEmbedder } from '../search/indexing/default-embedder.js'
import { exportTableJob } from './export-table-job.js'
import { importTableJob } from './import-table-job.js'
import { embedTableRowsJob, scheduleStaleRowSweep, sweepStaleRowsJob, type TableSearchOptions } from '../search/rows/index.js'
import { tablesRoutes } from './routes.js'
import { computeSweepJob, computeTableJob, resolveComputeOptions, scheduleComputeSweep, sharedCodeSandbox, type ComputeOptions } from './computed/index.js'
import { createCodeSandbox } from './computed/sandbox/index.js'

/** Options of {@link createTablesFeature}. */
export interface TablesFeatureOptions {
  /**
   * Row embedding and hybrid search (see `TableSearchOptions`); default: the server's default embedder.
   *
   * @example
   * ```ts
   * createTablesFeature({ search: { embedder: null } })
   * ```
   */
  search?: TableSearchOptions
  /**
   * The environment the default embedder is chosen from when none is given (`BOTSHELF_EMBEDDINGS_*`); default the
   * process's, read once when the feature is made.
   *
   * @example
   * ```ts
   * createTablesFeature({ env: { BOTSHELF_EMBEDDINGS_URL: 'http://127.0.0.1:11434/v1', BOTSHELF_EMBEDDINGS_MODEL: 'nomic-embed-text' } })
   * ```
   */
  env?: Readonly<Record<string, string | undefined>>
  /**
   * How computed columns run (decision 1422): computations in flight per table, claim lease, sweep interval, the
   * `waitComputed` time limit, code limits and sandbox. The language model is the app's (`services.languageModel`).
   *
   * @example
   * ```ts
   * createTablesFeature({ compute: { concurrency: 8, waitComputedMs: 10_000 } })
   * ```
   */
  compute?: ComputeOptions
}

/**
 * The Tables API as a feature of the service: its routes, the background jobs that run imports and exports,
 * computed columns (`tables.compute` and its sweep), and row embedding for hybrid search (the `tables.embed` job and its recurring sweep, started at once so rows left
 * stale by a restart are embedded; decision 0860).
 *
 * @example
 * ```ts
 * const app = await createApp({ memory: true, features: [createTablesFeature({ search: { embedder } })] })
 * ```
 */
export function createTablesFeature(options: TablesFeatureOptions = {}): ServiceFeature {
  // Routes and jobs read this object when they run: an embedder left unset is filled in at start (the default).
  const search: TableSearchOptions = { ...options.search }
  const env = options.env ?? { ...process.env }
  const intervalMs = search.sweepIntervalMs ?? 60_000
  const compute = resolveComputeOptions(options.compute)
  const codeSandbox = sharedCodeSandbox(compute.sandbox === undefined ? createCodeSandbox : compute.sandbox, {
    timeLimitMs: compute.codeTimeLimitMs,
    memoryLimitBytes: compute.codeMemoryLimitBytes,
  })
  return {
    name: 'tables',
    routes: tablesRoutes(search, compute),
    jobs: [importTableJob, exportTableJob, embedTableRowsJob(search), sweepStaleRowsJob(search, intervalMs), computeTableJob(compute, codeSandbox), computeSweepJob(compute.sweepIntervalMs)],
    async start(services) {
      // Computations left pending by a restart or an outage resume from the sweep.
      await scheduleComputeSweep(services, services.now(), compute.sweepIntervalMs)
      services.jobs.wake()
      if (search.embedder === undefined) search.embedder = await loadDefaultEmbedder(services.logger, env)
      if (search.embedder) {
        await scheduleStaleRowSweep(services, services.now(), intervalMs)
        services.jobs.wake()
      }
      // The code sandbox's worker threads stop with the app.
      return { stop: () => codeSandbox.close() }
    },
  }
}

/**
 * The Tables API feature with default options.
 *
 * @example
 * ```ts
 * const app = await createApp({ memory: true, features: [tablesFeature] })
 * ```
 */
export const tablesFeature: ServiceFeature = createTablesFeature()
