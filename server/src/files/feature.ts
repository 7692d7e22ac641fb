import type { ServiceFeature } from '../http/env.js'
import { filesContentRoutes } from './content-routes.js'
import { defaultUrlLifetimes, type UrlLifetimes } from './content-urls.js'
import { expireFilesJob, scheduleExpiry } from './expire-files-job.js'
import { failDeadIndexingJobs, indexFileJob } from '../search/indexing/index-file-job.js'
import { extractPassages } from '../search/extraction/index.js'
import { loadDefaultEmbedder } from '../search/indexing/default-embedder.js'
import type { IndexingOptions } from '../search/indexing/indexing-options.js'
import { filesRoutes } from './routes.js'

/** Options of {@link createFilesFeature}. */
export interface FilesFeatureOptions {
  /**
   * Lifetimes of signed URLs (defaults: uploads 3600 s, private downloads 900 s).
   *
   * @example
   * ```ts
   * createFilesFeature({ urls: { uploadSeconds: 600, downloadSeconds: 60 } })
   * ```
   */
  urls?: UrlLifetimes
  /**
   * How often expired files are deleted, in milliseconds (default 60 000): the interval of the recurring
   * `files.expire` job.
   *
   * @example
   * ```ts
   * createFilesFeature({ expirySweepIntervalMs: 1000 })
   * ```
   */
  expirySweepIntervalMs?: number
  /**
   * Indexing: the document extractor and the embedder (both optional; see `IndexingOptions`).
   *
   * @example
   * ```ts
   * createFilesFeature({ indexing: { extractor: extractPassages, embedder } })
   * ```
   */
  indexing?: IndexingOptions
  /**
   * The environment the default embedder is chosen from when none is given (`BOTSHELF_EMBEDDINGS_*`); default the
   * process's, read once when the feature is made.
   *
   * @example
   * ```ts
   * createFilesFeature({ env: { BOTSHELF_EMBEDDINGS_URL: 'http://127.0.0.1:11434/v1', BOTSHELF_EMBEDDINGS_MODEL: 'nomic-embed-text' } })
   * ```
   */
  env?: Readonly<Record<string, string | undefined>>
}

/**
 * The Files API as a service feature: the signed content routes (mounted before auth), the authenticated
 * `/v1/files` routes (search included), the recurring `files.expire` job, the `files.index` job, and at start a sweep
 * of leftover content (temporary files and blobs no row references, from a crash), the first expiry pass, and the
 * end of indexing requests whose job died.
 *
 * @example
 * ```ts
 * const app = await createApp({ memory: true, features: [createFilesFeature({ expirySweepIntervalMs: 1000 })] })
 * ```
 */
export function createFilesFeature(options: FilesFeatureOptions = {}): ServiceFeature {
  const urls = options.urls ?? defaultUrlLifetimes
  const intervalMs = options.expirySweepIntervalMs ?? 60_000
  // Routes and jobs read this object when they run: an embedder left unset is filled in at start (the default).
  const indexing: IndexingOptions = { extractor: extractPassages, ...options.indexing }
  const env = options.env ?? { ...process.env }
  return {
    name: 'files',
    publicRoutes: filesContentRoutes(),
    routes: filesRoutes({ urls, indexing }),
    jobs: [expireFilesJob(intervalMs), indexFileJob(indexing)],
    async start(services) {
      const { backend, logger } = services
      if (indexing.embedder === undefined) indexing.embedder = await loadDefaultEmbedder(logger, env)
      const startedAt = new Date()
      const leftovers = backend.blobs
        .sweep((blobIds) => backend.files.blobsInUse(blobIds), { olderThan: startedAt })
        .then((report) => {
          if (report.orphans + report.temporaryFiles > 0) logger.log('info', 'swept leftover content', { ...report })
        })
        .catch((error: unknown) => logger.log('error', 'content sweep failed', { error: String(error) }))
      await scheduleExpiry(services, services.now(), intervalMs)
      const abandoned = await failDeadIndexingJobs(services)
      if (abandoned > 0) logger.log('warn', 'ended indexing requests whose job died', { count: abandoned })
      // The indexing job of new content was queued with its commit: start it now rather than at the next poll.
      const unsubscribe = services.files.on((event) => {
        if (event.type === 'content-committed' && event.file.status === 'indexing_pending') services.jobs.wake()
      })
      services.jobs.wake()
      return {
        async stop() {
          unsubscribe()
          await leftovers
        },
      }
    },
  }
}

/**
 * The Files API feature with default options.
 *
 * @example
 * ```ts
 * const app = createApp({ dataDir: './.botshelf', features: [filesFeature] })
 * ```
 */
export const filesFeature: ServiceFeature = createFilesFeature()
