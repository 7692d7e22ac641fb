import { createEmbedderFromEnv, EmbedderError, type Embedder } from '../embedding/index.js'
import type { Logger } from '../../http/logger.js'

let loading: Promise<Embedder | null> | undefined

/**
 * The embedder a server uses when it is given none: the OpenAI-compatible service named by
 * `BOTSHELF_EMBEDDINGS_URL` (with `BOTSHELF_EMBEDDINGS_MODEL`, `BOTSHELF_EMBEDDINGS_API_KEY`), else the offline
 * default. Loaded once per process (the offline word vectors take ~0.2 s to read); when it cannot be made (a bad
 * variable, the word-vector file missing from the build) the reason is logged and search ranks by words only.
 *
 * @example
 * ```ts
 * const embedder = await loadDefaultEmbedder(logger) // null: lexical search only
 * ```
 */
export function loadDefaultEmbedder(logger: Logger): Promise<Embedder | null> {
  loading ??= createEmbedderFromEnv(process.env).catch((error: unknown) => {
    if (!(error instanceof EmbedderError)) throw error
    logger.log('warn', 'no embedder: search ranks by words only', { reason: error.message, code: error.code })
    return null
  })
  return loading
}
