import type { PassageListQuery, PassageRecord, PassageVectorsInput, ReplacePassagesInput, SearchHit, SearchQuery, SearchUsage, StaleFile } from './types.js'

/**
 * The search index port: the passages (and vectors) of files, searched lexically and by vector with the caller's
 * scope and tag filter applied inside the query. Passages belong to a file row: deleting the file (or its expiry)
 * removes them; expired files never match.
 *
 * @example
 * ```ts
 * await backend.transaction(async (tx) => {
 *   await tx.search.replacePassages({ fileId, botId, embedderId: null, passages })
 *   await tx.files.finishIndexing(fileId, generation, { status: 'indexing_completed' })
 * })
 * const hits = await backend.search.search({ botId, scope: { kind: 'all' }, text: 'refund policy', limit: 20 })
 * ```
 */
export interface SearchIndexPort {
  /** Replaces every passage of a file with these, at once: readers see the old set or the new one, never a mix. */
  replacePassages(input: ReplacePassagesInput): Promise<void>
  /** Deletes every passage of a file; returns how many there were. */
  deleteFilePassages(fileId: string): Promise<number>
  /** The best passages for a query, highest score first (hybrid when a vector is given, lexical otherwise). */
  search(query: SearchQuery): Promise<SearchHit[]>
  /** One page of a file's passages in document order. */
  listPassages(query: PassageListQuery): Promise<{ items: PassageRecord[]; nextPosition?: number }>
  /** The passages of a file whose positions lie in `[from, to]`, in document order (context around a hit). */
  passagesAround(fileId: string, from: number, to: number): Promise<PassageRecord[]>
  /** Passages, text bytes and vector bytes held for these bots (File Storage and Vector DB Storage accounting). */
  usage(botIds: ReadonlyArray<string>): Promise<SearchUsage>
  /**
   * Files (of every bot) holding passages without a vector of `embedderId`, by file id after `afterFileId`: the work
   * of a reindex after the embedder changed.
   */
  staleFiles(query: { embedderId: string; afterFileId?: string; limit: number }): Promise<StaleFile[]>
  /** Files and passages `staleFiles` would walk through (the size of a reindex). */
  countStale(embedderId: string): Promise<{ files: number; passages: number }>
  /**
   * Stores new vectors for passages of a file at once. Passages that no longer exist (the file was indexed again
   * meanwhile) are skipped; returns how many were updated.
   */
  setPassageVectors(input: PassageVectorsInput): Promise<number>
}
