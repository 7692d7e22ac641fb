import type { Embedder } from '../embedding/index.js'
import type { DocumentExtractor } from './document-extractor.js'

/**
 * How the files feature indexes documents. By default the extractor is botshelf's own (`extractPassages`:
 * PDF, DOCX, PPTX, XLSX, HTML, Markdown, CSV, text) and the embedder is the one the environment names
 * (`BOTSHELF_EMBEDDINGS_URL`), else the offline default. Without an `extractor` files can still be indexed from
 * passages given with `setFilePassages`; with `embedder: null` the index is lexical only (BM25).
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
  embedder?: Embedder | null
  /**
   * Texts embedded per call (default 32).
   *
   * @example
   * ```ts
   * createFilesFeature({ indexing: { embedder, embedBatchSize: 64 } })
   * ```
   */
  embedBatchSize?: number
  /**
   * The relevance floor of `searchFiles`, 0 to 1 (default `DEFAULT_RELEVANCE_FLOOR`, 0.05): passages scoring under it
   * are not returned, so a query with nothing related answers an empty list (decision 1432).
   *
   * @example
   * ```ts
   * createFilesFeature({ indexing: { minScore: 0.3 } })
   * ```
   */
  minScore?: number
}
