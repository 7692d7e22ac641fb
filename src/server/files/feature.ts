import { filesMigrations } from '../../store/sqlite/files-migrations.js'
import type { ServiceFeature } from '../env.js'
import { filesContentRoutes } from './content-routes.js'
import { defaultUrlLifetimes, type UrlLifetimes } from './content-urls.js'
import { startExpirySweeper } from './expiry-sweeper.js'
import { filesRoutes } from './routes.js'
import { filesStateOf } from './state.js'

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
   * How often expired files are deleted, in milliseconds (default 60 000).
   *
   * @example
   * ```ts
   * createFilesFeature({ expirySweepIntervalMs: 1000 })
   * ```
   */
  expirySweepIntervalMs?: number
}

/**
 * The Files API as a service feature: its migrations, the signed content routes (mounted before auth), the
 * authenticated `/v1/files` routes, and at start a sweep of leftover content (temporary files and blobs no
 * row references, from a crash) plus the expiry sweeper, stopped by `app.close()`.
 *
 * @example
 * ```ts
 * const app = createApp({ memory: true, features: [createFilesFeature({ expirySweepIntervalMs: 1000 })] })
 * ```
 */
export function createFilesFeature(options: FilesFeatureOptions = {}): ServiceFeature {
  const urls = options.urls ?? defaultUrlLifetimes
  return {
    name: 'files',
    migrations: filesMigrations,
    publicRoutes: filesContentRoutes(),
    routes: filesRoutes({ urls }),
    start(services) {
      const state = filesStateOf(services)
      const startedAt = new Date()
      const leftovers = state.blobs
        .sweep((blobId) => state.files.blobInUse(blobId), { olderThan: startedAt })
        .then((report) => {
          if (report.orphans + report.temporaryFiles > 0) services.logger.log('info', 'swept leftover content', { ...report })
        })
        .catch((error: unknown) => services.logger.log('error', 'content sweep failed', { error: String(error) }))
      const sweeper = startExpirySweeper(services, options.expirySweepIntervalMs ?? 60_000)
      void sweeper.sweepNow().catch(() => undefined)
      return {
        async stop() {
          await leftovers
          await sweeper.stop()
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
