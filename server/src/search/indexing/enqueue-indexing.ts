import type { BackendPorts, FileRecord } from '../../store/index.js'
import { z } from 'zod'
import { enqueueJob, type JobSpec } from '../../jobs/index.js'
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
 * The `files.index` job as the code that queues it sees it: its kind and payload schema (the handler,
 * `indexFileJob`, is made from the indexing options).
 *
 * @example
 * ```ts
 * await enqueueJob(tx.jobs, indexFileSpec, { payload: { fileId, generation: 1 } })
 * ```
 */
export const indexFileSpec: JobSpec<IndexFilePayload> = {
  kind: INDEX_FILE_JOB,
  payload: z.object({
    fileId: z.string(),
    generation: z.number(),
    passages: z.array(z.custom<GivenPassage>((value) => typeof value === 'object' && value !== null)).optional(),
    deferrals: z.number().optional(),
  }) as z.ZodType<IndexFilePayload>,
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
  await enqueueJob(tx.jobs, indexFileSpec, {
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
