import { createOfflineEmbedder, createOpenAiCompatibleEmbedder, embedderOptionsFromEnv, EmbedderError, type Embedder } from '../embedding/index.js'
import type { Logger } from '../../http/logger.js'

/** The offline default, loaded once per process: it depends on no setting, and its word vectors take ~0.2 s to read. */
let offline: Promise<Embedder> | undefined

/**
 * The embedder a server uses when it is given none: the OpenAI-compatible service named by
 * `BOTSHELF_EMBEDDINGS_URL` in `env` (with `BOTSHELF_EMBEDDINGS_MODEL`, `BOTSHELF_EMBEDDINGS_API_KEY`), else the
 * offline default. `env` is the environment the app was started with, passed down (never read here). When no
 * embedder can be made (a bad variable, the word-vector file missing from the build) the reason is logged and
 * search ranks by words only.
 *
 * @example
 * ```ts
 * const embedder = await loadDefaultEmbedder(logger, process.env) // null: lexical search only
 * ```
 */
export async function loadDefaultEmbedder(logger: Logger, env: Readonly<Record<string, string | undefined>>): Promise<Embedder | null> {
  try {
    const service = embedderOptionsFromEnv(env)
    if (service) return createOpenAiCompatibleEmbedder(service)
    offline ??= createOfflineEmbedder()
    return await offline
  } catch (error) {
    if (!(error instanceof EmbedderError)) throw error
    logger.log('warn', 'no embedder: search ranks by words only', { reason: error.message, code: error.code })
    return null
  }
}
