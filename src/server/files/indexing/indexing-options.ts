import type { Embedder } from '../../../store/index.js'
import type { DocumentExtractor } from './document-extractor.js'

/**
 * How the files feature indexes documents. Both parts are optional: without an `extractor` files can still be
 * indexed from passages given with `setFilePassages`, and indexing from content fails with a reason saying no
 * extractor is configured; without an `embedder` the index is lexical only (BM25) and search ranks by words.
 */
export interface IndexingOptions {
  /**
   * Turns uploaded documents into passages.
   *
   * @example
   * ```ts
   * createFilesFeature({ indexing: { extractor: extractPassages } })
   * ```
   */
  extractor?: DocumentExtractor
  /**
   * Embeds passages and queries for the vector half of hybrid search.
   *
   * @example
   * ```ts
   * createFilesFeature({ indexing: { extractor: extractPassages, embedder: myEmbedder } })
   * ```
   */
  embedder?: Embedder
  /**
   * Texts embedded per call (default 32).
   *
   * @example
   * ```ts
   * createFilesFeature({ indexing: { embedder, embedBatchSize: 64 } })
   * ```
   */
  embedBatchSize?: number
}
