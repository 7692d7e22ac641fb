import type { ServiceFeature } from '../env.js'
import { filesContentRoutes } from './content-routes.js'
import { defaultUrlLifetimes, type UrlLifetimes } from './content-urls.js'
import { expireFilesJob, scheduleExpiry } from './expire-files-job.js'
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
}

/**
 * The Files API as a service feature: the signed content routes (mounted before auth), the authenticated
 * `/v1/files` routes, the recurring `files.expire` job, and at start a sweep of leftover content (temporary files
 * and blobs no row references, from a crash) plus the first expiry pass.
 *
 * @example
 * ```ts
 * const app = await createApp({ memory: true, features: [createFilesFeature({ expirySweepIntervalMs: 1000 })] })
 * ```
 */
export function createFilesFeature(options: FilesFeatureOptions = {}): ServiceFeature {
  const urls = options.urls ?? defaultUrlLifetimes
  const intervalMs = options.expirySweepIntervalMs ?? 60_000
  return {
    name: 'files',
    publicRoutes: filesContentRoutes(),
    routes: filesRoutes({ urls }),
    jobs: [expireFilesJob(intervalMs)],
    async start(services) {
      const { backend, logger } = services
      const startedAt = new Date()
      const leftovers = backend.blobs
        .sweep((blobId) => backend.files.blobInUse(blobId), { olderThan: startedAt })
        .then((report) => {
          if (report.orphans + report.temporaryFiles > 0) logger.log('info', 'swept leftover content', { ...report })
        })
        .catch((error: unknown) => logger.log('error', 'content sweep failed', { error: String(error) }))
      await scheduleExpiry(services, services.now(), intervalMs)
      services.jobs.wake()
      return {
        async stop() {
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
