import type { Embedder } from '../embedding/index.js'
import { embeddingContextOf, embeddingTexts, type EmbeddablePassage } from './embedding-texts.js'
import type { Backend } from '../../store/index.js'

/** Where a reindex stands, reported after each file. */
export interface ReembedProgress {
  /** Files re-embedded so far, and how many there were to do when the reindex started. */
  files: number
  totalFiles: number
  /** Passages re-embedded so far, and the total at the start. */
  passages: number
  totalPassages: number
  /** The file just finished. */
  fileId: string
}

/** Options of `reembedStaleFiles`. */
export interface ReembedOptions {
  /**
   * Called once with the totals before any work, then after every file.
   *
   * @example
   * ```ts
   * await reembedStaleFiles(backend, embedder, { onProgress: (p) => console.log(`${p.files}/${p.totalFiles}`) })
   * ```
   */
  onProgress?: (progress: ReembedProgress) => void
  /**
   * Texts per `embed` call (default 32).
   *
   * @example
   * ```ts
   * await reembedStaleFiles(backend, embedder, { batchSize: 64 })
   * ```
   */
  batchSize?: number
  /**
   * Stops between batches, e.g. on Ctrl-C; what was stored stays stored and the next run goes on from there.
   *
   * @example
   * ```ts
   * await reembedStaleFiles(backend, embedder, { signal: AbortSignal.timeout(60_000) })
   * ```
   */
  signal?: AbortSignal
}

/** Files read from the index per query. */
const FILES_PER_PAGE = 100
/** Passages read per page of one file. */
const PASSAGES_PER_PAGE = 500

/**
 * Re-embeds every indexed file whose passages carry vectors of another embedder (or none) with `embedder`, file by
 * file: each file's new vectors are stored at once, so search compares a file either by its old vectors (ignored
 * under the new id: words only) or by the new ones. The passages' text is not extracted again. A file indexed again
 * meanwhile keeps its fresh passages (their ids changed, so the stale vectors find nothing to overwrite). Returns
 * the totals done.
 *
 * @example
 * ```ts
 * const { files, passages } = await reembedStaleFiles(backend, embedder, { onProgress: (p) => bar.update(p.passages) })
 * ```
 */
export async function reembedStaleFiles(backend: Backend, embedder: Embedder, options: ReembedOptions = {}): Promise<{ files: number; passages: number; embedderId: string }> {
  // A service adapter knows its id (model and dimension) only once it has asked the service.
  await embedder.dimensions()
  const embedderId = embedder.id
  const batchSize = options.batchSize ?? 32
  const totals = await backend.search.countStale(embedderId)
  const progress: ReembedProgress = { files: 0, totalFiles: totals.files, passages: 0, totalPassages: totals.passages, fileId: '' }
  options.onProgress?.({ ...progress })
  let after: string | undefined
  for (;;) {
    const page = await backend.search.staleFiles({ embedderId, limit: FILES_PER_PAGE, ...(after !== undefined ? { afterFileId: after } : {}) })
    if (page.length === 0) break
    for (const stale of page) {
      options.signal?.throwIfAborted()
      const passages = await allPassages(backend, stale.fileId)
      // Embedded from the same texts as when the file was indexed: its own chunking options apply again.
      const file = await backend.files.getAnyById(stale.fileId)
      // A file deleted meanwhile gets the defaults (its vectors then find no passage to land on).
      const texts = embeddingTexts(passages, embeddingContextOf(file ?? { indexingConfiguration: null }))
      const vectors: Array<{ passageId: string; vector: Float32Array }> = []
      for (let start = 0; start < passages.length; start += batchSize) {
        options.signal?.throwIfAborted()
        const batch = passages.slice(start, start + batchSize)
        const answer = await embedder.embed(texts.slice(start, start + batchSize), { purpose: 'passage', ...(options.signal ? { signal: options.signal } : {}) })
        if (answer.length !== batch.length) throw new Error(`the embedder ${embedderId} returned ${answer.length} vectors for ${batch.length} texts`)
        batch.forEach((passage, index) => vectors.push({ passageId: passage.id, vector: answer[index]! }))
      }
      progress.passages += await backend.search.setPassageVectors({ fileId: stale.fileId, embedderId, vectors })
      progress.files += 1
      progress.fileId = stale.fileId
      options.onProgress?.({ ...progress })
    }
    after = page[page.length - 1]!.fileId
  }
  return { files: progress.files, passages: progress.passages, embedderId }
}

async function allPassages(backend: Backend, fileId: string): Promise<Array<EmbeddablePassage & { id: string }>> {
  const passages: Array<EmbeddablePassage & { id: string }> = []
  let afterPosition: number | undefined
  for (;;) {
    const page = await backend.search.listPassages({ fileId, pageSize: PASSAGES_PER_PAGE, ...(afterPosition !== undefined ? { afterPosition } : {}) })
    passages.push(...page.items.map((item) => ({ id: item.id, content: item.content, type: item.type, subtype: item.subtype, breadcrumb: item.breadcrumb })))
    if (page.nextPosition === undefined) return passages
    afterPosition = page.nextPosition
  }
}
