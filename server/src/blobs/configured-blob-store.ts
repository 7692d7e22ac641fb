import type { BlobStore } from './blob-store.js'
import { createLocalFolderBlobStore } from './local-folder-store.js'
import { blobStoreOptionsFrom, openS3BlobStore, type BlobConfigSources } from './s3/s3-options.js'
import type { Clock } from 'botshelf/api'

/** Input of {@link openConfiguredBlobStore}: the configuration sources and the local folder to fall back on. */
export interface ConfiguredBlobStoreOptions extends BlobConfigSources {
  /**
   * The folder content goes to when no blobs URL is configured (the data folder's content folder).
   *
   * @example
   * ```ts
   * await openConfiguredBlobStore({ env: process.env, localRoot: './.botshelf/content/files' })
   * ```
   */
  localRoot: string
  /**
   * The clock of the S3 store's sweep and signatures (the backend's).
   *
   * @example
   * ```ts
   * await openConfiguredBlobStore({ env: process.env, localRoot, now: () => new Date() })
   * ```
   */
  now?: Clock
}

/** The blob store the configuration chose, and how to release it. */
export interface ConfiguredBlobStore {
  kind: 'local-folder' | 's3'
  blobs: BlobStore
  /** Where the content goes, for the start banner: the folder, or `s3://bucket/prefix`. */
  location: string
  /** Releases the store's connections (S3); nothing to do for a folder. */
  close(): void
}

/**
 * The one call a command needs for its content storage: S3 when `--blobs` / `BOTSHELF_BLOBS_URL` is set (checked
 * and opened, the AWS SDK loaded only then), otherwise the local folder. Configuration mistakes throw a
 * `BlobConfigError` naming the setting; an unreachable or refusing bucket a `BlobStorageError`.
 *
 * @example
 * ```ts
 * const content = await openConfiguredBlobStore({ flag: args.blobs, env: process.env, localRoot: join(dataDir, 'content', 'files') })
 * const backend = await openPostgresBackend({ url, blobs: content.blobs })
 * ```
 */
export async function openConfiguredBlobStore(options: ConfiguredBlobStoreOptions): Promise<ConfiguredBlobStore> {
  const s3 = blobStoreOptionsFrom({ ...(options.flag !== undefined ? { flag: options.flag } : {}), env: options.env })
  if (!s3) {
    return { kind: 'local-folder', blobs: createLocalFolderBlobStore({ root: options.localRoot }), location: options.localRoot, close: () => undefined }
  }
  const blobs = await openS3BlobStore({ ...s3, ...(options.now ? { now: options.now } : {}) })
  return { kind: 's3', blobs, location: `s3://${s3.bucket}/${s3.prefix ?? ''}`, close: () => blobs.close() }
}
