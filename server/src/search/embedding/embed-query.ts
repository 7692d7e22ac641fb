import type { Embedder } from './index.js'
import type { Logger } from '../../http/logger.js'

/** How long a search waits for the embedder before it ranks by words alone, in milliseconds. */
export const QUERY_EMBED_TIMEOUT_MS = 10_000

/**
 * The embedding of a search's text, or `undefined` when there is no embedder or it fails or takes longer than
 * `QUERY_EMBED_TIMEOUT_MS` (logged): the search then ranks by words alone instead of failing (decision 0820).
 * File search and table search both use it.
 *
 * @example
 * ```ts
 * const vector = await embedQuery(embedder, 'lost my password', services.logger)
 * const hits = await backend.search.search({ ...query, ...(vector ? { vector } : {}) })
 * ```
 */
export async function embedQuery(embedder: Embedder | null | undefined, text: string, logger: Logger): Promise<{ embedderId: string; values: Float32Array } | undefined> {
  if (!embedder) return undefined
  try {
    const [values] = await embedder.embed([text], { purpose: 'query', signal: AbortSignal.timeout(QUERY_EMBED_TIMEOUT_MS) })
    return values ? { embedderId: embedder.id, values } : undefined
  } catch (error) {
    logger.log('warn', 'the embedder did not answer; searching by words only', { embedder: embedder.id, error: error instanceof Error ? error.message : String(error) })
    return undefined
  }
}
