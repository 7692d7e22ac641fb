import type { Embedder } from '../embedding/index.js'

/**
 * How the tables feature embeds rows and searches (decision 0860). Without `embedder` set, the feature takes the
 * server's default at start (the service `BOTSHELF_EMBEDDINGS_URL` names, else the offline default), the same one
 * file search uses; `embedder: null` keeps table search lexical and `stale`/`indexing` at 0.
 */
export interface TableSearchOptions {
  /**
   * Embeds row text and search queries.
   *
   * @example
   * ```ts
   * createTablesFeature({ search: { embedder: null } }) // lexical table search only
   * ```
   */
  embedder?: Embedder | null
  /**
   * Rows embedded per call to the embedder (default 32).
   *
   * @example
   * ```ts
   * createTablesFeature({ search: { embedBatchSize: 64 } })
   * ```
   */
  embedBatchSize?: number
  /**
   * How often tables with rows left to embed get a job, in milliseconds (default 60 000); the first sweep runs at
   * start, so rows written before a crash or a restart are embedded after it.
   *
   * @example
   * ```ts
   * createTablesFeature({ search: { sweepIntervalMs: 5_000 } })
   * ```
   */
  sweepIntervalMs?: number
}
