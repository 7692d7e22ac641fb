import { join } from 'node:path'
import { createLocalFolderBlobStore, type BlobStore } from '../../blobs/index.js'
import { FilesRepository } from '../../store/sqlite/files-repository.js'
import { KnowledgeBasesRepository } from '../../store/sqlite/files-knowledge-bases.js'
import type { AppServices } from '../env.js'

/** What the files routes share per app: the repositories and the blob store. */
export interface FilesState {
  files: FilesRepository
  knowledgeBases: KnowledgeBasesRepository
  blobs: BlobStore
}

const states = new WeakMap<AppServices, FilesState>()

/**
 * The files state of an app, built on first use from its database and content folder
 * (`<contentDir>/files`). One per app, so two apps in one process never share blobs.
 *
 * @example
 * ```ts
 * const { files, blobs } = filesStateOf(c.get('services'))
 * ```
 */
export function filesStateOf(services: AppServices): FilesState {
  let state = states.get(services)
  if (!state) {
    state = {
      files: new FilesRepository(services.db),
      knowledgeBases: new KnowledgeBasesRepository(services.db),
      blobs: createLocalFolderBlobStore({ root: join(services.contentDir, 'files') }),
    }
    states.set(services, state)
  }
  return state
}

/**
 * Deletes blobs no row references any more, after the transaction that released them committed. A failure
 * leaves an orphan that the startup sweep removes, so it is logged, not thrown.
 *
 * @example
 * ```ts
 * await releaseBlobs(services, files.delete(file.id))
 * ```
 */
export async function releaseBlobs(services: AppServices, blobIds: ReadonlyArray<string>): Promise<void> {
  const { blobs } = filesStateOf(services)
  for (const blobId of blobIds) {
    await blobs.delete(blobId).catch((error: unknown) => {
      services.logger.log('warn', 'could not delete a released blob; the startup sweep will', { blobId, error: String(error) })
    })
  }
}
