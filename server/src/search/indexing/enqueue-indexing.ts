import type { BackendPorts, FileRecord } from '../../store/index.js'
import type { GivenPassage } from './given-passages.js'

/** Kind of the job that indexes a file. */
export const INDEX_FILE_JOB = 'files.index'

/** Payload of a `files.index` job: the file, the indexing request it serves, and passages when they were given. */
export interface IndexFilePayload {
  fileId: string
  generation: number
  /** Passages given by `setFilePassages`; absent: extract them from the file's content. */
  passages?: GivenPassage[]
  /** How many times an unavailable embedder postponed this request. */
  deferrals?: number
}

/**
 * Queues the indexing job of a file's current indexing request, inside the caller's transaction: the status change
 * and the job commit together, so a crash between them cannot leave a file pending without a job.
 *
 * @example
 * ```ts
 * await backend.transaction(async (tx) => {
 *   const file = await tx.files.requestIndexing(id)
 *   await enqueueIndexing(tx, file)
 * })
 * ```
 */
export async function enqueueIndexing(tx: BackendPorts, file: FileRecord, extra: { passages?: GivenPassage[]; runAt?: Date; deferrals?: number } = {}): Promise<void> {
  const payload: IndexFilePayload = {
    fileId: file.id,
    generation: file.indexGeneration,
    ...(extra.passages ? { passages: extra.passages } : {}),
    ...(extra.deferrals ? { deferrals: extra.deferrals } : {}),
  }
  await tx.jobs.enqueue({
    kind: INDEX_FILE_JOB,
    payload,
    dedupeKey: `${file.id}:${file.indexGeneration}:${extra.deferrals ?? 0}`,
    ...(extra.runAt ? { runAt: extra.runAt } : {}),
  })
}

/**
 * What a content commit means for the index, inside the commit's transaction: a file waiting for indexing gets its
 * job; a file whose new content is not to be indexed loses the passages of its earlier content.
 *
 * @example
 * ```ts
 * const { file } = await tx.files.completeUpload(id, version, blob)
 * await indexAfterContentCommit(tx, file)
 * ```
 */
export async function indexAfterContentCommit(tx: BackendPorts, file: FileRecord): Promise<void> {
  if (file.status === 'indexing_pending') await enqueueIndexing(tx, file)
  else await tx.search.deleteFilePassages(file.id)
}
