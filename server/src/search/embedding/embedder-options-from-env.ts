import { EmbedderError } from './embedder-errors.js'
import type { OpenAiCompatibleEmbedderOptions } from './openai-compatible-embedder.js'

/**
 * The `serve` flags of the embeddings service, each with the environment variable it stands for. A flag wins over
 * its variable: the CLI turns given flags into variables (`{ ...process.env, [entry.env]: value }`) and calls
 * `embedderOptionsFromEnv`. The table's keys and `type` fit `node:util` `parseArgs`.
 *
 * @example
 * ```ts
 * const { values } = parseArgs({ args, options: { ...embedderFlags }, strict: false })
 * const env = { ...process.env }
 * for (const [flag, entry] of Object.entries(embedderFlags)) if (typeof values[flag] === 'string') env[entry.env] = values[flag]
 * const options = embedderOptionsFromEnv(env)
 * ```
 */
export const embedderFlags = {
  'embeddings-url': {
    type: 'string',
    env: 'BOTSHELF_EMBEDDINGS_URL',
    description: 'Base URL of an OpenAI-compatible embeddings API (botshelf POSTs to {url}/embeddings); unset: the offline embedder',
  },
  'embeddings-model': { type: 'string', env: 'BOTSHELF_EMBEDDINGS_MODEL', description: 'Embedding model name (required with --embeddings-url)' },
  'embeddings-api-key': { type: 'string', env: 'BOTSHELF_EMBEDDINGS_API_KEY', description: 'Sent as "Authorization: Bearer <key>"' },
  'embeddings-query-prefix': { type: 'string', env: 'BOTSHELF_EMBEDDINGS_QUERY_PREFIX', description: 'Put before every search question (e.g. "search_query: " for nomic-embed-text)' },
  'embeddings-passage-prefix': { type: 'string', env: 'BOTSHELF_EMBEDDINGS_PASSAGE_PREFIX', description: 'Put before every indexed passage (e.g. "search_document: ")' },
  'embeddings-batch-size': { type: 'string', env: 'BOTSHELF_EMBEDDINGS_BATCH_SIZE', description: 'Texts per request (default 64)' },
  'embeddings-timeout-ms': { type: 'string', env: 'BOTSHELF_EMBEDDINGS_TIMEOUT_MS', description: 'Deadline of one request in ms (default 30000)' },
  'embeddings-max-retries': { type: 'string', env: 'BOTSHELF_EMBEDDINGS_MAX_RETRIES', description: 'Retries after 429, 5xx or a timeout (default 3)' },
} as const satisfies Record<string, { type: 'string'; env: string; description: string }>

/**
 * Reads the embeddings configuration from environment variables: `undefined` when `BOTSHELF_EMBEDDINGS_URL` is unset
 * or empty (use the offline embedder), otherwise the options of `createOpenAiCompatibleEmbedder`. A bad value is an
 * `EmbedderError` (`EMBEDDER_INVALID_OPTIONS`) naming the variable, what it expects and what it received.
 *
 * @example
 * ```ts
 * const options = embedderOptionsFromEnv(process.env)
 * const embedder = options ? createOpenAiCompatibleEmbedder(options) : await createOfflineEmbedder()
 * ```
 */
export function embedderOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): OpenAiCompatibleEmbedderOptions | undefined {
  const read = (name: string) => {
    const value = env[name]?.trim()
    return value === undefined || value === '' ? undefined : value
  }
  const invalid = (name: string, expected: string, received: string | undefined) =>
    new EmbedderError('EMBEDDER_INVALID_OPTIONS', `${name}: expected ${expected}, received ${received === undefined ? 'nothing' : JSON.stringify(received)}`)
  const url = read(embedderFlags['embeddings-url'].env)
  if (url === undefined) return undefined
  if (!/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url)) throw invalid('BOTSHELF_EMBEDDINGS_URL', 'an http(s) base URL such as "http://127.0.0.1:11434/v1"', url)
  const model = read(embedderFlags['embeddings-model'].env)
  if (model === undefined) throw invalid('BOTSHELF_EMBEDDINGS_MODEL', 'a model name (required when BOTSHELF_EMBEDDINGS_URL is set)', model)
  const integer = (name: string, min: number) => {
    const text = read(name)
    if (text === undefined) return undefined
    if (!/^\d+$/.test(text) || Number(text) < min) throw invalid(name, `an integer ≥ ${min}`, text)
    return Number(text)
  }
  const options: OpenAiCompatibleEmbedderOptions = { url, model }
  const apiKey = read(embedderFlags['embeddings-api-key'].env)
  if (apiKey !== undefined) options.apiKey = apiKey
  // Prefixes keep their spaces ("query: "): read raw, not trimmed.
  const queryPrefix = env[embedderFlags['embeddings-query-prefix'].env]
  if (queryPrefix) options.queryPrefix = queryPrefix
  const passagePrefix = env[embedderFlags['embeddings-passage-prefix'].env]
  if (passagePrefix) options.passagePrefix = passagePrefix
  const batchSize = integer(embedderFlags['embeddings-batch-size'].env, 1)
  if (batchSize !== undefined) options.batchSize = batchSize
  const timeoutMs = integer(embedderFlags['embeddings-timeout-ms'].env, 1)
  if (timeoutMs !== undefined) options.timeoutMs = timeoutMs
  const maxRetries = integer(embedderFlags['embeddings-max-retries'].env, 0)
  if (maxRetries !== undefined) options.maxRetries = maxRetries
  return options
}
