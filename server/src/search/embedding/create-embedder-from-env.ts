import type { Embedder } from './embedder.js'
import { embedderOptionsFromEnv } from './embedder-options-from-env.js'
import { createOfflineEmbedder, type OfflineEmbedderOptions } from './offline/index.js'
import { createOpenAiCompatibleEmbedder, type OpenAiCompatibleEmbedderOptions } from './openai-compatible-embedder.js'

/**
 * The embedder the configuration asks for: the OpenAI-compatible service when `BOTSHELF_EMBEDDINGS_URL` is set,
 * else the offline default. Throws `EmbedderError` for a bad variable (`EMBEDDER_INVALID_OPTIONS`) or a missing
 * offline word-vector file (`EMBEDDER_MODEL_MISSING`: the caller then serves lexical search only).
 *
 * @example
 * ```ts
 * const embedder = await createEmbedderFromEnv(process.env)
 * console.log(`search: ${embedder.label}`)
 * ```
 */
export async function createEmbedderFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  options: {
    /** Options for the offline default, e.g. `{ offline: { wordVectorsPath: '/opt/wv.bin' } }`. */
    offline?: OfflineEmbedderOptions
    /** Extra options for the service adapter (a fetch, a clock), e.g. `{ service: { fetch: proxiedFetch } }`. */
    service?: Partial<OpenAiCompatibleEmbedderOptions>
  } = {},
): Promise<Embedder> {
  const service = embedderOptionsFromEnv(env)
  return service ? createOpenAiCompatibleEmbedder({ ...options.service, ...service }) : createOfflineEmbedder(options.offline)
}
